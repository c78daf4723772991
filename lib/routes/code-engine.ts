import { defineGroup } from '#lib/http/route.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';

export const codeEngine = defineGroup({
  name: 'code-engine',
  description: 'AI-generated code fixes for incidents and pull requests that apply them.',
  needs: [tableReadWrite, signingKeys],
  routes: {
    getAnalysis: {
      method: 'GET',
      path: '/api/v1/code-engine/analysis/:id',
      summary: 'Incident metadata and any existing code fix, by incident id or ticket id',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
    },
    generateFix: {
      method: 'POST',
      path: '/api/v1/code-engine/generate-fix/:id',
      summary: 'Generate a code fix for an incident',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
    },
    createPullRequest: {
      method: 'POST',
      path: '/api/v1/code-engine/create-pr/:id',
      summary: 'Open a pull request on code host A for the fix; integrations:write, as it writes to a repository',
      auth: 'bearerOrApiKey',
      scope: 'integrations:write',
      access: 'write',
    },
  },
});
