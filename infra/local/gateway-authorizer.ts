import type { APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { handler as apiKeyAuthorizer } from '#functions/api-key-authorizer/index.ts';
import { TOO_MANY_REQUESTS } from '#lib/http/middlewares/rate-limit.ts';
import { errorResponse } from '#lib/http/response.ts';
import { INVALID_API_KEY } from '#lib/http/gateway-answers.ts';
import type { LocalUsagePlan } from './local-usage-plan.ts';

const authorizerEventOf = (event: APIGatewayProxyEvent): APIGatewayRequestAuthorizerEvent => ({
  type: 'REQUEST',
  methodArn: `arn:aws:execute-api:local:000000000000:local/${event.requestContext.stage}/${event.httpMethod}${event.path}`,
  resource: event.resource,
  path: event.path,
  httpMethod: event.httpMethod,
  headers: event.headers,
  multiValueHeaders: event.multiValueHeaders,
  pathParameters: event.pathParameters,
  queryStringParameters: event.queryStringParameters,
  multiValueQueryStringParameters: event.multiValueQueryStringParameters,
  stageVariables: event.stageVariables,
  requestContext: { ...event.requestContext, authorizer: undefined },
});

/**
 * The gateway's part of a method that requires an API key, as the stack configures it: the authorizer
 * names the usage-plan key, the plan admits or refuses it, and an admitted request reaches the function
 * with the authorizer's context. Returns the gateway's own answer when it refuses.
 */
export const authorizeAtGateway = async (
  event: APIGatewayProxyEvent,
  plan: LocalUsagePlan,
  now: () => Date,
): Promise<APIGatewayProxyResult | undefined> => {
  const requestId = event.requestContext.requestId;
  const verdict = await apiKeyAuthorizer(authorizerEventOf(event));
  const admission = plan.admit(verdict.usageIdentifierKey, now());
  switch (admission.kind) {
    case 'invalidKey':
      return errorResponse(401, INVALID_API_KEY, [], requestId);
    case 'throttled': {
      const reset = String(admission.resetSeconds);
      return errorResponse(429, TOO_MANY_REQUESTS, [], requestId, {
        'retry-after': reset,
        'ratelimit-limit': String(admission.limit),
        'ratelimit-remaining': '0',
        'ratelimit-reset': reset,
      });
    }
    case 'admitted':
      event.requestContext.authorizer = { principalId: verdict.principalId, ...verdict.context };
      return undefined;
  }
};
