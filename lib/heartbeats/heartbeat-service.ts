import { NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { type Heartbeat, isHeartbeatId, nextPingDueAt, stateAt } from './heartbeat.ts';
import { heartbeatRepository } from './heartbeat-repository.ts';
import { PING_PATH, pingTokenOf } from './ping-token.ts';
import type { HeartbeatInput, HeartbeatView } from './schemas.ts';

/** 32 bytes: a ping URL cannot be guessed. */
const SECRET_BYTES = 32;

const notFound = (id: string): NotFoundError =>
  new NotFoundError('Heartbeat not found', [`id: no heartbeat ${id} in this workspace`]);

/** The heartbeat as the API shows it: its state now, and its ping URL under the API's address as called. */
const viewOf = (scope: Scope, heartbeat: Heartbeat, baseUrl: string): HeartbeatView => {
  const { secret, downSignalId: _signal, ...fields } = heartbeat;
  const token = pingTokenOf({ workspaceId: scope.workspaceId, heartbeatId: heartbeat.id, secret });
  return {
    ...fields,
    state: stateAt(heartbeat, scope.ports.clock.now()),
    nextPingDueAt: nextPingDueAt(heartbeat).toISOString(),
    pingUrl: `${baseUrl}${PING_PATH}/${token}`,
  };
};

/** Waits from now: a heartbeat never pinged is missed an interval and its grace after it was created. */
export const createHeartbeat = async (
  scope: Scope,
  { input, baseUrl }: { input: HeartbeatInput; baseUrl: string },
): Promise<HeartbeatView> => {
  const { ports, workspaceId } = scope;
  const now = ports.clock.now().toISOString();
  const heartbeat: Heartbeat = {
    id: ports.ids.sortable(),
    ...input,
    serviceId: input.serviceId ?? null,
    secret: ports.ids.secret(SECRET_BYTES),
    lastPingAt: null,
    downSince: null,
    downSignalId: null,
    createdAt: now,
    updatedAt: now,
  };
  await heartbeatRepository(ports.table, workspaceId).insertHeartbeat(heartbeat);
  return viewOf(scope, heartbeat, baseUrl);
};

export const listHeartbeats = async (scope: Scope, { baseUrl }: { baseUrl: string }): Promise<HeartbeatView[]> =>
  (await heartbeatRepository(scope.ports.table, scope.workspaceId).queryHeartbeats()).map((heartbeat) =>
    viewOf(scope, heartbeat, baseUrl),
  );

export const getHeartbeat = async (scope: Scope, { id, baseUrl }: { id: string; baseUrl: string }) => {
  const heartbeat = isHeartbeatId(id)
    ? await heartbeatRepository(scope.ports.table, scope.workspaceId).findHeartbeat(id)
    : undefined;
  if (!heartbeat) throw notFound(id);
  return viewOf(scope, heartbeat, baseUrl);
};

/** Full replace of the writable fields; the ping URL, the last ping and an open outage stay. */
export const replaceHeartbeat = async (
  scope: Scope,
  { id, input, baseUrl }: { id: string; input: HeartbeatInput; baseUrl: string },
): Promise<HeartbeatView> => {
  const { ports, workspaceId } = scope;
  const heartbeat = isHeartbeatId(id)
    ? await heartbeatRepository(ports.table, workspaceId).replaceHeartbeat(id, input, ports.clock.now().toISOString())
    : undefined;
  if (!heartbeat) throw notFound(id);
  return viewOf(scope, heartbeat, baseUrl);
};

/** Its ping URL stops working at once; an incident it opened stays, for people to resolve. */
export const deleteHeartbeat = async ({ ports, workspaceId }: Scope, id: string): Promise<void> => {
  if (!isHeartbeatId(id) || !(await heartbeatRepository(ports.table, workspaceId).removeHeartbeat(id))) {
    throw notFound(id);
  }
};
