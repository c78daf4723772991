import type { Incident } from './incident.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { recordMessages } from './message-repository.ts';

/**
 * The post-resolution hooks the spec runs on `POST /resolve/:id`: for now the resolution note in the
 * thread; notifications join here.
 */
export const afterResolution = async ({ ports, workspaceId, actor }: Scope, incident: Incident): Promise<void> => {
  await recordMessages(ports, workspaceId, incident.id, [
    { kind: 'RESOLUTION', text: `Incident resolved by ${actor}`, actor },
  ]);
};
