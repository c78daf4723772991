/**
 * The workspace's own HTTP API as the importers use it: every write goes through the routes' validation and the
 * caller's workspace, as any client's would. The caller is an ADMIN's bearer token (listing members and inviting
 * take one; an API key cannot).
 */
export type ApiRequest = (method: string, path: string, body?: unknown) => Promise<ApiReply>;

export interface ApiReply {
  status: number;
  /** The parsed JSON body: our envelope, `{ success, message, data }` or `{ success: false, message, errors }`. */
  body: unknown;
}

interface Envelope {
  message?: string;
  errors?: unknown;
  data?: unknown;
}

export interface Workspace {
  /** Member id by lower-cased e-mail. */
  members: Map<string, string>;
  /** Schedule id by name. */
  schedules: Map<string, string>;
  services: Set<string>;
  /** Policy id by name; undefined when the service has no escalation-policy routes (issue 43 not deployed). */
  policies: Map<string, string> | undefined;
}

export const PATHS = {
  members: '/api/v1/business/get_members',
  invite: '/api/v1/business/send-invite',
  schedules: '/api/v1/schedules',
  services: '/api/v1/service-map',
  policies: '/api/v1/escalation-policies',
} as const;

/** A refused call stops the import with the API's own field messages. */
export const expectStatus = <T>(reply: ApiReply, status: number, what: string): T => {
  const body = (reply.body ?? {}) as Envelope;
  if (reply.status === status) return body.data as T;
  const errors = Array.isArray(body.errors) ? `: ${body.errors.join('; ')}` : '';
  throw new Error(`${what}: ${reply.status} ${body.message ?? ''}${errors}`);
};

const byName = (items: { id: string; name: string }[]): Map<string, string> =>
  new Map(items.map(({ id, name }) => [name, id]));

/** What the workspace holds already, so a plan creates only what is missing and a second run creates nothing. */
export const readWorkspace = async (request: ApiRequest): Promise<Workspace> => {
  const [members, schedules, services, policies] = await Promise.all([
    request('GET', PATHS.members),
    request('GET', PATHS.schedules),
    request('GET', PATHS.services),
    request('GET', PATHS.policies),
  ]);
  const memberList = expectStatus<{ id: string; email: string }[]>(members, 200, 'listing members');
  const serviceList = expectStatus<{ services: { name: string }[] }>(services, 200, 'listing services').services;
  return {
    members: new Map(memberList.map(({ id, email }) => [email.toLowerCase(), id])),
    schedules: byName(expectStatus(schedules, 200, 'listing schedules')),
    services: new Set(serviceList.map(({ name }) => name)),
    policies: policies.status === 404 ? undefined : byName(expectStatus(policies, 200, 'listing escalation policies')),
  };
};
