import { ForbiddenError } from '#lib/http/errors.ts';
import type { RouteRequest } from '#lib/http/route.ts';
import type { Runtime } from '#lib/runtime/runtime.ts';
import { actorOf } from '#lib/tickets/history.ts';

/** Who acts on which workspace's incidents, and with what; every incident service takes one. */
export interface IncidentScope {
  runtime: Runtime;
  workspaceId: string;
  /** How history and messages name the caller: an e-mail or `api-key:<name>`. */
  actor: string;
}

/**
 * The scope of a request. Authorization already refused callers without a workspace; the check here
 * keeps an unscoped read impossible should a route ever be misconfigured.
 */
export const incidentScope = ({ caller, runtime }: Pick<RouteRequest, 'caller' | 'runtime'>): IncidentScope => {
  const workspaceId = caller.kind === 'anonymous' ? null : caller.workspaceId;
  if (!workspaceId) throw new ForbiddenError('Set up or join a workspace first');
  return { runtime, workspaceId, actor: actorOf(caller) };
};
