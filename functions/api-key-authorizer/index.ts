import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { createApiKeyGate, toGatewayContext } from '#lib/api-keys/api-key-gate.ts';
import { credentialsOf, presentedApiKey } from '#lib/identity/credentials.ts';
import { systemAccountScope } from '#lib/identity/scope.ts';
import { portsOf } from '#lib/ports/port-set.ts';
import { apiKeyAuthorizer } from '#lib/workers/api-key-authorizer.ts';

const vouch = createApiKeyGate();

/**
 * Lets every request through to the function, which authenticates it: the authorizer only tells the
 * gateway which usage-plan key a request counts under. A key it vouches for is throttled by its own
 * mirror (and the function trusts the context instead of reading the key again); anything else counts
 * under the shared unkeyed key and meets the function's own checks, which answer the precise 401.
 */
export const handler = async (
  event: APIGatewayRequestAuthorizerEvent,
): Promise<APIGatewayAuthorizerResult & { usageIdentifierKey: string }> => {
  const ports = portsOf(apiKeyAuthorizer);
  const raw = presentedApiKey(
    credentialsOf({ headers: event.headers, queryStringParameters: event.queryStringParameters }),
  );
  const key = raw ? await vouch(systemAccountScope(ports), raw) : undefined;
  return {
    principalId: key ? `api-key:${key.keyId}` : 'unkeyed',
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }],
    },
    usageIdentifierKey: key ? key.keyHash : ports.unkeyedUsageKey,
    ...(key && { context: toGatewayContext(key) }),
  };
};
