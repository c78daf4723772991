import { createApiKey, deleteApiKey } from '#lib/api-keys/api-key-service.ts';
import { BadRequestError, ConflictError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { ensureWebhookSecret } from './hook-secret.ts';
import type { OAuthIntegration } from '#lib/ports/integration-providers/integration-providers.ts';
import { codeHostHookRepository } from './code-host-hook-repository.ts';
import { accessTokenOf, markConnectionFailed, workspaceConnection } from './oauth-connections.ts';
import { callProvider, jsonPost, type ProviderReply } from './provider-http.ts';

type CodeHost = Extract<OAuthIntegration, 'codehost-a' | 'codehost-b'>;

/** Each host's REST API as its hosted and self-managed editions share it. */
const API = {
  'codehost-a': {
    headers: (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/vnd.github+json' }),
    hooksPath: (target: string) => `/repos/${target.split('/').map(encodeURIComponent).join('/')}/hooks`,
    hookBody: (url: string, secret: string, events: string[]) => ({
      name: 'web',
      active: true,
      events,
      config: { url, content_type: 'json', secret, insecure_ssl: '0' },
    }),
    listPath: '/user/repos?per_page=100&sort=updated',
    targetField: 'repoFullName',
  },
  'codehost-b': {
    headers: (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' }),
    hooksPath: (target: string) => `/projects/${encodeURIComponent(target)}/hooks`,
    hookBody: (url: string, secret: string, events: string[]) => ({
      url,
      token: secret,
      enable_ssl_verification: true,
      ...Object.fromEntries(events.map((event) => [`${event}_events`, true])),
    }),
    listPath: '/projects?membership=true&per_page=100&order_by=last_activity_at',
    targetField: 'projectId',
  },
} as const;

interface Authorized {
  baseUrl: string;
  token: string;
}

/** The workspace's connection with a fresh token; a token the provider refuses puts it in ERROR (409). */
const authorized = async (
  scope: Scope,
  host: CodeHost,
): Promise<Authorized & { fail: (reply: ProviderReply) => Promise<never> }> => {
  const connection = await workspaceConnection(scope, host);
  const token = await accessTokenOf(scope, connection);
  const provider = (await scope.ports.integrations.providers())[host];
  if (!provider) throw new BadRequestError(`${host} is not configured in this deployment`);
  const fail = async (reply: ProviderReply): Promise<never> => {
    if (reply.status === 401) {
      await markConnectionFailed(scope, connection, 'the provider no longer accepts the access token');
      throw new ConflictError(`The ${host} connection needs to be made again`, [
        `${host}: the access token was refused`,
      ]);
    }
    const message = (reply.body as { message?: unknown } | undefined)?.message;
    throw new BadRequestError(`${host} refused the request`, [
      `${API[host].targetField}: ${host} answered ${reply.status}${typeof message === 'string' ? `: ${message.slice(0, 200)}` : ''}`,
    ]);
  };
  return { baseUrl: provider.apiBaseUrl, token, fail };
};

export interface RegisteredHook {
  id: string;
  target: string;
  events: string[];
  /** Where the host delivers, without the ingestion key it carries. */
  deliveryUrl: string;
  registeredAt: string;
}

/**
 * Creates a hook at the code host that delivers to this workspace's ingestion route, signed with the
 * sender's webhook secret (the one ingestion checks; generated if none is set). The route needs an API
 * key, so each hook gets its own `ingestion:write` key in its URL; the key is deleted again when the host
 * refuses the hook, so a failed registration leaves nothing behind.
 */
export const registerCodeHostHook = async (
  scope: Scope,
  { host, target, events }: { host: CodeHost; target: string; events: string[] },
): Promise<RegisteredHook> => {
  const { baseUrl, token, fail } = await authorized(scope, host);
  const secret = await ensureWebhookSecret(scope, { sender: host, candidate: scope.ports.ids.secret(32) });
  const key = await createApiKey(scope, {
    name: `${host} webhook ${target}`.slice(0, 100),
    environment: 'PRODUCTION',
    scopes: ['ingestion:write'],
  });
  const deliveryUrl = `${scope.ports.integrations.apiUrl}/api/v1/ingestion/${host}`;
  const api = API[host];
  let reply: ProviderReply;
  try {
    reply = await jsonPost(
      `${baseUrl}${api.hooksPath(target)}`,
      api.hookBody(`${deliveryUrl}?apiKey=${encodeURIComponent(key.key)}`, secret, events),
      api.headers(token),
    );
  } catch (error) {
    await deleteApiKey(scope, key.id);
    throw error;
  }
  if (!reply.ok) {
    await deleteApiKey(scope, key.id);
    return fail(reply);
  }
  const hookId = String((reply.body as { id?: unknown } | undefined)?.id ?? '');
  const registeredAt = scope.ports.clock.now().toISOString();
  await codeHostHookRepository(scope.ports.table, scope.workspaceId).putHook({
    sender: host,
    target,
    providerHookId: hookId,
    events,
    apiKeyId: key.id,
    registeredBy: scope.actor,
    registeredAt,
  });
  return { id: hookId, target, events, deliveryUrl, registeredAt };
};

const listFrom = async (scope: Scope, host: CodeHost): Promise<Record<string, unknown>[]> => {
  const { baseUrl, token, fail } = await authorized(scope, host);
  const reply = await callProvider(`${baseUrl}${API[host].listPath}`, {
    method: 'GET',
    headers: API[host].headers(token),
  });
  if (!reply.ok) return fail(reply);
  return Array.isArray(reply.body) ? (reply.body as Record<string, unknown>[]) : [];
};

export interface CodeHostRepo {
  id: string;
  fullName: string;
  defaultBranch: string | null;
  private: boolean;
}

/** The connected account's repositories, most recently updated first, the first 100. */
export const listCodehostARepos = async (scope: Scope): Promise<CodeHostRepo[]> =>
  (await listFrom(scope, 'codehost-a')).map((repo) => ({
    id: String(repo.id),
    fullName: String(repo.full_name),
    defaultBranch: typeof repo.default_branch === 'string' ? repo.default_branch : null,
    private: repo.private === true,
  }));

export interface CodeHostProject {
  id: string;
  name: string;
  pathWithNamespace: string;
  defaultBranch: string | null;
}

/** The projects the connected account is a member of, most recently active first, the first 100. */
export const listCodehostBProjects = async (scope: Scope): Promise<CodeHostProject[]> =>
  (await listFrom(scope, 'codehost-b')).map((project) => ({
    id: String(project.id),
    name: String(project.name),
    pathWithNamespace: String(project.path_with_namespace),
    defaultBranch: typeof project.default_branch === 'string' ? project.default_branch : null,
  }));
