import type { RouteRequest } from '#lib/http/route.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { actorOf } from '#lib/identity/caller.ts';

/** Who acts on which workspace's incidents, and with what; every incident service takes one. */
export interface IncidentScope {
  runtime: Ports;
  workspaceId: string;
  /** How history and messages name the caller: an e-mail or `api-key:<name>`. */
  actor: string;
}

/** The scope of a request: its workspace (a 403 without one) and its caller as an actor. */
export const incidentScope = ({
  caller,
  workspaceId,
  runtime,
}: Pick<RouteRequest, 'caller' | 'workspaceId' | 'runtime'>): IncidentScope => ({
  runtime,
  workspaceId,
  actor: actorOf(caller),
});
