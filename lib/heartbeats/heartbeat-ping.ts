import { NotFoundError } from '#lib/contract/errors.ts';
import type { AccountScope } from '#lib/identity/scope.ts';
import { type HeartbeatState, stateAt } from './heartbeat.ts';
import { heartbeatRepository } from './heartbeat-repository.ts';
import { parsePingToken } from './ping-token.ts';

export interface PingAnswer {
  id: string;
  name: string;
  lastPingAt: string;
  state: HeartbeatState;
}

/**
 * A ping (docs/heartbeats.md): one conditional UpdateItem that holds only for the heartbeat's own secret,
 * nothing read before it, so a ping costs one write and a wrong token the same. A heartbeat the sweep had
 * marked DOWN is ended, and its incident resolved, by the next sweep. An unknown or wrong token is a 404
 * that says no more than that.
 */
export const pingHeartbeat = async ({ ports }: AccountScope, token: string): Promise<PingAnswer> => {
  const parsed = parsePingToken(token);
  const at = ports.clock.now();
  const heartbeat = parsed
    ? await heartbeatRepository(ports.table, parsed.workspaceId).recordPing(
        parsed.heartbeatId,
        parsed.secret,
        at.toISOString(),
      )
    : undefined;
  if (!heartbeat) throw new NotFoundError('Heartbeat not found', ['token: no heartbeat has this ping URL']);
  return { id: heartbeat.id, name: heartbeat.name, lastPingAt: at.toISOString(), state: stateAt(heartbeat, at) };
};
