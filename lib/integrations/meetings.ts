import type { Scope } from '#lib/identity/scope.ts';
import { ConflictError } from '#lib/contract/errors.ts';
import { accessTokenOf, markConnectionFailed, workspaceConnection } from './oauth-connections.ts';
import { jsonPost } from './provider-http.ts';

/**
 * A war-room meeting created through the connected video tool's API (`POST {apiBaseUrl}/meetings`, an
 * instant meeting), or undefined when the workspace has not connected one. A refused token puts the
 * connection in ERROR and throws, so the notification that asked records the failure.
 */
export const createWarRoomLink = async (scope: Scope, topic: string): Promise<string | undefined> => {
  const connection = await workspaceConnection(scope, 'videomeet').catch((error: unknown) => {
    if (error instanceof ConflictError) return undefined;
    throw error;
  });
  if (!connection) return undefined;
  const token = await accessTokenOf(scope, connection);
  const provider = (await scope.ports.integrations.providers()).videomeet;
  if (!provider) return undefined;
  const reply = await jsonPost(
    `${provider.apiBaseUrl}/meetings`,
    { topic: topic.slice(0, 200), type: 1 },
    { authorization: `Bearer ${token}` },
  );
  if (reply.status === 401) {
    await markConnectionFailed(scope, connection, 'the provider no longer accepts the access token');
  }
  const joinUrl = (reply.body as { join_url?: unknown } | undefined)?.join_url;
  if (!reply.ok || typeof joinUrl !== 'string')
    throw new Error(`the video tool answered ${reply.status} without a join_url`);
  return joinUrl;
};
