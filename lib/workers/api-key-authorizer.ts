import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { unkeyedUsage } from '#lib/ports/usage-plan/usage-plan-need.ts';
import { apiKeyUsage, tableRead } from '#lib/ports/table/table-needs.ts';

/** The gateway's authorizer of the routes that take API keys: it reads keys and refreshes their `lastUsedAt`. */
export const apiKeyAuthorizer: FunctionDeclaration = {
  name: 'api-key-authorizer',
  description: 'Resolves API keys to their usage-plan keys for the gateway',
  needs: [tableRead, apiKeyUsage, unkeyedUsage],
};
