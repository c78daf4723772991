import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ForbiddenError } from '#lib/contract/errors.ts';
import type { Caller } from '#lib/identity/caller.ts';
import { rolesFor, type RouteSpec } from '../route.ts';
import type { HttpContext } from './http-context.ts';

const authorize = (spec: RouteSpec, caller: Caller): void => {
  if (caller.kind === 'anonymous' || !spec.access) return;
  if (caller.kind === 'apiKey') {
    if (spec.scope && !caller.scopes.includes(spec.scope)) {
      throw new ForbiddenError(`This API key lacks the ${spec.scope} scope`, [`scope: ${spec.scope} is required`]);
    }
    return;
  }
  if (!caller.workspaceId) {
    // An account without a workspace may only create one (`account` routes such as business setup).
    if (spec.auth === 'account') return;
    throw new ForbiddenError('Set up or join a workspace first');
  }
  const allowed = rolesFor(spec.access);
  if (!caller.roles.some((role) => allowed.includes(role))) {
    throw new ForbiddenError('Your role does not permit this action', [
      `role: one of ${allowed.join(', ')} is required`,
    ]);
  }
};

/**
 * What the caller may do, from the route table: an API key needs the route's scope, a user a role the
 * route's access level allows and a workspace (DECISIONS.md, Accounts; API keys and scopes).
 */
export const authorization = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> => ({
  before: ({ context }) => {
    if (context.route && context.caller) authorize(context.route.spec, context.caller);
  },
});
