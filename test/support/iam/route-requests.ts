import { SIGNED_SENDERS } from '#lib/ingestion/webhook-secrets-signature.ts';
import type { IngestionSender } from '#lib/ingestion/normalized-event.ts';
import { KEY_SCOPES } from '#lib/identity/caller.ts';
import { joinAs, latestOtp, uniqueEmail, type SignedIn } from '../accounts.ts';
import type { FakeIdentityProvider } from '../fake-identity-provider.ts';
import type { HttpReply, TestClient } from '../local-stack.ts';
import { allFixtureFiles, loadFixture } from '../../ingestion/support.ts';
import { postRaw } from '../../ingestion-routes/support.ts';

/** What the representative requests share: a workspace, its ADMIN, an API key with every scope. */
export interface RequestContext {
  client: TestClient;
  provider: FakeIdentityProvider;
  admin: SignedIn;
  keyHeaders: Record<string, string>;
  /** Ids one request creates and a later one uses. */
  ids: Record<string, string>;
}

/** A route's representative request(s); each reply must be a success. */
export type RouteRequests = (context: RequestContext) => Promise<HttpReply | HttpReply[]>;

const V1 = '/api/v1';
const PASSWORD = 'correct horse battery staple';

const expectOk = (reply: HttpReply, step: string): HttpReply => {
  if (reply.status >= 300) throw new Error(`${step}: ${reply.status} ${reply.text}`);
  return reply;
};

/** POST and keep `data.id` (or `data[field]`) under `name`. */
const creating = async (
  { client, admin, ids }: RequestContext,
  name: string,
  path: string,
  body: unknown,
  field = 'id',
): Promise<HttpReply> => {
  const reply = expectOk(await client.request('POST', `${V1}${path}`, body, admin.auth), `create ${name}`);
  ids[name] = reply.body.data[field];
  return reply;
};

const as =
  (method: string, path: (ids: Record<string, string>) => string, body?: unknown, by: 'admin' | 'key' = 'admin') =>
  ({ client, admin, keyHeaders, ids }: RequestContext) =>
    client.request(method, `${V1}${path(ids)}`, body, by === 'admin' ? admin.auth : keyHeaders);
const admin = (method: string, path: string, body?: unknown) => as(method, () => path, body);

/** `X-API-Key` with a new key of the admin's workspace that has every scope. */
export const keyWithEveryScope = async (client: TestClient, signedIn: SignedIn): Promise<Record<string, string>> => {
  const body = { name: 'every scope', environment: 'PRODUCTION', scopes: KEY_SCOPES };
  const reply = expectOk(await client.request('POST', `${V1}/apikey/createapikey`, body, signedIn.auth), 'createapikey');
  return { 'x-api-key': reply.body.data.key };
};

/**
 * A key never used before: only its first request refreshes `lastUsedAt`, the one write a read-only
 * function makes outside the limiter's windows.
 */
const byFreshKey =
  (path: string) =>
  async ({ client, admin: signedIn }: RequestContext): Promise<HttpReply> =>
    client.request('GET', `${V1}${path}`, undefined, await keyWithEveryScope(client, signedIn));
const byKey = (path: string) => as('GET', () => path, undefined, 'key');

const registerDeveloper = (client: TestClient, email: string): Promise<HttpReply> =>
  client.request('POST', `${V1}/auth/dev/register`, {
    firstName: 'Grace',
    lastName: 'Hopper',
    email,
    experienceLevel: 'SENIOR',
    password: PASSWORD,
  });

const unverifiedDeveloper = async ({ client }: RequestContext): Promise<string> => {
  const email = uniqueEmail('dev');
  expectOk(await registerDeveloper(client, email), 'register a developer');
  return email;
};

const oauthPerson = async ({ provider }: RequestContext) => {
  const email = uniqueEmail('oidc');
  const sub = `sub-${email}`;
  return { email, provider_uuid: sub, oAuthProvider: 'openid', idToken: await provider.idToken({ sub, email }) };
};

const invitation = async ({ client, admin }: RequestContext): Promise<string> => {
  const email = uniqueEmail('invitee');
  const body = { email, role: 'ENGINEER', accessPermissions: [] };
  expectOk(await client.request('POST', `${V1}/business/send-invite`, body, admin.auth), 'send-invite');
  const mail = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`);
  return (mail.body.data as { token?: string }[]).find((message) => message.token)?.token as string;
};

/** Every payload file of a sender's fixtures, as the sender posts it. */
const fixturesOf =
  (sender: IngestionSender) =>
  async ({ client, keyHeaders }: RequestContext): Promise<HttpReply[]> => {
    const replies: HttpReply[] = [];
    for (const { file } of allFixtureFiles().filter((fixture) => fixture.sender === sender)) {
      const fixture = loadFixture(sender, file);
      replies.push(await postRaw(client, sender, fixture.raw, fixture.headers, { headers: keyHeaders }));
    }
    return replies;
  };

/**
 * An alert group over the events stored while the sender waits, one of them larger than a queue message:
 * the events go to the ingestion queue, that one as an object, and the ingestion worker stores them.
 */
const queuedAlertGroup = ({ client, keyHeaders }: RequestContext): Promise<HttpReply> => {
  const alerts = Array.from({ length: 101 }, (_, index) => ({
    status: 'firing',
    labels: { alertname: `queued-${index}`, severity: 'info' },
    annotations: { summary: index === 0 ? 'x'.repeat(80 * 1024) : `alert ${index}` },
    startsAt: '2030-01-01T00:00:00Z',
    fingerprint: `queued${index}`,
  }));
  const body = { version: '4', receiver: 'ops', status: 'firing', groupKey: '{}:{}', alerts };
  return client.request('POST', `${V1}/ingestion/metrics-alerts`, body, keyHeaders);
};

const signal = (name: string, metadata: Record<string, unknown> = {}) => ({
  name,
  source: 'least-privilege',
  severity: 'HIGH',
  metadata,
});

/** `<group>.<route key>` of every built route: the request that exercises it, and through it the function's grants. */
export const ROUTE_REQUESTS: Record<string, RouteRequests> = {
  'health.getHealth': admin('GET', '/health'),

  'auth.login': ({ client, admin: { email, password } }) => client.request('POST', `${V1}/auth/login`, { email, password }),
  'auth.refreshToken': ({ client, admin: { refreshToken } }) =>
    client.request('POST', `${V1}/auth/refresh-token`, { refreshToken }),
  'auth.oauthLogin': async (context) => {
    const { idToken: _used, ...person } = await oauthPerson(context);
    const idToken = await context.provider.idToken({ sub: person.provider_uuid, email: person.email });
    const register = { firstName: 'Grace', lastName: 'Hopper', experienceLevel: 'SENIOR', ...person, idToken };
    expectOk(await context.client.request('POST', `${V1}/auth/oauth/dev/register`, register), 'oauth register');
    const again = await context.provider.idToken({ sub: person.provider_uuid, email: person.email });
    return context.client.request('POST', `${V1}/auth/oauth/login`, { ...person, idToken: again });
  },
  'auth.ssoDiscovery': ({ client, admin: { email } }) =>
    client.request('GET', `${V1}/auth/sso/discovery?email=${encodeURIComponent(email)}`),
  'auth.registerDeveloper': ({ client }) => registerDeveloper(client, uniqueEmail('dev')),
  'auth.registerBusiness': ({ client }) =>
    client.request('POST', `${V1}/auth/business/register`, {
      businessName: 'Globex',
      firstName: 'Hank',
      lastName: 'Scorpio',
      email: uniqueEmail('business'),
      password: PASSWORD,
    }),
  'auth.oauthRegisterDeveloper': async (context) =>
    context.client.request('POST', `${V1}/auth/oauth/dev/register`, {
      firstName: 'Grace',
      lastName: 'Hopper',
      experienceLevel: 'SENIOR',
      ...(await oauthPerson(context)),
    }),
  'auth.oauthRegisterBusiness': async (context) =>
    context.client.request('POST', `${V1}/auth/oauth/business/register`, {
      businessName: 'Initech',
      firstName: 'Bill',
      lastName: 'Lumbergh',
      ...(await oauthPerson(context)),
    }),
  'auth.verifyEmail': async (context) => {
    const email = await unverifiedDeveloper(context);
    const otp = await latestOtp(context.client, email);
    return context.client.request('POST', `${V1}/auth/verify_email`, { email, otp });
  },
  'auth.resendOtp': async (context) =>
    context.client.request('POST', `${V1}/auth/resend_otp`, { email: await unverifiedDeveloper(context) }),
  'auth.forgotPassword': async (context) => {
    context.ids.resetEmail = await unverifiedDeveloper(context);
    return context.client.request('POST', `${V1}/auth/forgot-password`, { email: context.ids.resetEmail });
  },
  'auth.resetPassword': async ({ client, ids: { resetEmail: email = '' } }) =>
    client.request('POST', `${V1}/auth/reset-password`, {
      email,
      otp: await latestOtp(client, email),
      newPassword: 'a brand new password',
    }),

  'api-keys.createKey': (context) =>
    creating(context, 'apiKey', '/apikey/createapikey', {
      name: 'least privilege',
      environment: 'PRODUCTION',
      scopes: ['incidents:read'],
    }),
  'api-keys.listKeys': admin('GET', '/apikey/apikeys'),
  'api-keys.rotateKey': as('POST', ({ apiKey }) => `/apikey/${apiKey}/rotate`),
  'api-keys.revokeKey': as('POST', ({ apiKey }) => `/apikey/${apiKey}/revoke`),
  'api-keys.updateKey': async (context) => {
    await creating(context, 'pausedKey', '/apikey/createapikey', {
      name: 'paused',
      environment: 'PRODUCTION',
      scopes: ['incidents:read'],
    });
    return as('PUT', ({ pausedKey }) => `/apikey/${pausedKey}`, { isActive: false })(context);
  },
  'api-keys.deleteKey': as('DELETE', ({ apiKey }) => `/apikey/${apiKey}`),

  'incidents.generateIncidentId': admin('GET', '/incident-ticket/generate-id'),
  'incidents.createIncident': (context) =>
    creating(context, 'incident', '/incident-ticket', { summary: 'Checkout is down', priority: 'HIGH' }),
  'incidents.listIncidents': byKey('/incident-ticket'),
  'incidents.getIncidentAnalytics': admin('GET', '/incident-ticket/analytics'),
  'incidents.getIncident': as('GET', ({ incident }) => `/incident-ticket/${incident}`),
  'incidents.listIncidentSignals': as('GET', ({ incident }) => `/incident-ticket/${incident}/signals`),
  'incidents.updateIncident': as('PUT', ({ incident }) => `/incident-ticket/${incident}`, { status: 'INVESTIGATION' }),
  'incidents.deleteIncident': async (context) => {
    await creating(context, 'doomedIncident', '/incident-ticket', { summary: 'A mistake', priority: 'LOW' });
    return as('DELETE', ({ doomedIncident }) => `/incident-ticket/${doomedIncident}`)(context);
  },
  'incidents.addComment': (context) =>
    admin('POST', '/incident-ticket/comment', { ticketId: context.ids.incident, content: 'Rolled back' })(context),
  'incidents.listComments': as('GET', ({ incident }) => `/incident-ticket/comment/${incident}`),
  'incidents.listMessages': as('GET', ({ incident }) => `/incident-ticket/message/${incident}`),
  'incidents.resolveIncident': as('POST', ({ incident }) => `/incident-ticket/resolve/${incident}`),
  'incidents.generatePdf': (context) =>
    admin('POST', '/incident-ticket/generate-pdf', { incidentId: context.ids.incident })(context),
  'incidents.generateTopLevelPdf': (context) => admin('POST', '/generate-pdf', { id: context.ids.incident })(context),

  'problems.createProblem': (context) =>
    creating(context, 'problem', '/problems', { title: 'Flaky payments', description: 'Retries pile up' }),
  'problems.listProblems': byKey('/problems'),
  'problems.getProblem': as('GET', ({ problem }) => `/problems/${problem}`),
  'problems.updateProblem': as('PUT', ({ problem }) => `/problems/${problem}`, { priority: 'HIGH' }),
  'problems.deleteProblem': as('DELETE', ({ problem }) => `/problems/${problem}`),

  'signals.listSignals': byKey('/signals'),
  'signals.getSignalStats': byKey('/signals/stats'),
  'signals.getSignal': async (context) => {
    // Metadata past what an item holds inline is an object, which reading the signal loads.
    await creating(context, 'largeSignal', '/signals', signal('large', { dump: 'y'.repeat(20 * 1024) }));
    return as('GET', ({ largeSignal }) => `/signals/${largeSignal}`)(context);
  },
  'signals.createSignal': (context) => creating(context, 'signal', '/signals', signal('disk full')),
  'signals.createSignalsBulk': admin('POST', '/signals/bulk', { signals: [signal('cpu high'), signal('cpu higher')] }),
  'signals.acknowledgeSignal': as('PATCH', ({ signal: id }) => `/signals/${id}/acknowledge`, { note: 'on it' }),
  'signals.resolveSignal': as('PATCH', ({ signal: id }) => `/signals/${id}/resolve`, {}),
  'signals.suppressSignal': as('PATCH', ({ largeSignal }) => `/signals/${largeSignal}/suppress`, { reason: 'noise' }),

  'correlation-rules.listRules': byKey('/correlation-rules'),
  'correlation-rules.getRule': async (context) => {
    await creating(context, 'rule', '/correlation-rules', { name: 'Checkout', action: { priority: 'HIGH' } });
    return as('GET', ({ rule }) => `/correlation-rules/${rule}`)(context);
  },
  'correlation-rules.createRule': admin('POST', '/correlation-rules', { name: 'Storage', action: { priority: 'LOW' } }),
  'correlation-rules.updateRule': as('PUT', ({ rule }) => `/correlation-rules/${rule}`, { windowMinutes: 15 }),
  'correlation-rules.deleteRule': as('DELETE', ({ rule }) => `/correlation-rules/${rule}`),

  'ingestion.ingestCodehostA': fixturesOf('codehost-a'),
  'ingestion.ingestCodehostB': fixturesOf('codehost-b'),
  'ingestion.ingestCodehostC': fixturesOf('codehost-c'),
  'ingestion.ingestOrchestrator': fixturesOf('orchestrator'),
  'ingestion.ingestPaging': fixturesOf('paging'),
  'ingestion.ingestMetricsAlerts': async (context) => [
    ...(await fixturesOf('metrics-alerts')(context)),
    await queuedAlertGroup(context),
  ],
  'ingestion.ingestMonitoring': fixturesOf('monitoring'),
  'ingestion.ingestWebhook': ({ client, keyHeaders }) =>
    client.request(
      'POST',
      `${V1}/ingestion/webhook`,
      { source: 'checkout', title: 'Payment errors above 5%', severity: 'critical', status: 'firing' },
      keyHeaders,
    ),
  'ingestion.getOrchestratorManifest': byKey('/ingestion/orchestrator/manifest'),
  'ingestion.listWebhookSecrets': admin('GET', '/ingestion/secrets'),
  'ingestion.putWebhookSecret': admin('PUT', `/ingestion/secrets/${SIGNED_SENDERS[0]}`, { secret: 's'.repeat(32) }),
  'ingestion.deleteWebhookSecret': admin('DELETE', `/ingestion/secrets/${SIGNED_SENDERS[0]}`),

  'on-call.assignMember': ({ client, admin: { auth, user } }) =>
    client.request(
      'POST',
      `${V1}/assign-member`,
      { userId: user.id, date: '2030-01-01', startTime: '09:00', endTime: '17:00' },
      auth,
    ),
  'on-call.listAssignments': byKey('/get-all-assign'),
  'on-call.getAssignment': async (context) => {
    const list = await context.client.request('GET', `${V1}/get-all-assign`, undefined, context.admin.auth);
    const id = list.body.data.assignments[0]?.id;
    return context.client.request('GET', `${V1}/get-assign/${id}`, undefined, context.admin.auth);
  },

  'pipelines.listRuns': byFreshKey('/pipelines'),
  'pipelines.getRun': async (context) => {
    const list = await context.client.request('GET', `${V1}/pipelines`, undefined, context.keyHeaders);
    const id = list.body.data.runs[0]?.id;
    return context.client.request('GET', `${V1}/pipelines/${id}`, undefined, context.admin.auth);
  },

  'tickets.listTickets': byFreshKey('/tickets'),
  'tickets.listHistory': admin('GET', '/tickets/history'),

  'business.decodeInvite': async (context) =>
    context.client.request('POST', `${V1}/business/decode-invite`, { token: await invitation(context) }),
  'business.acceptInvite': async (context) =>
    context.client.request('POST', `${V1}/business/accept-invite`, {
      token: await invitation(context),
      password: PASSWORD,
      firstName: 'Grace',
      lastName: 'Hopper',
    }),
  'business.setupBusiness': admin('PUT', '/business/setup', { businessName: 'Acme Operations' }),
  'business.listMembers': admin('GET', '/business/get_members'),
  'business.changeMemberRole': async (context) => {
    context.ids.member = (await joinAs(context.client, context.admin, 'ENGINEER')).user.id;
    return as('PATCH', ({ member }) => `/business/members/${member}`, { role: 'VIEWER' })(context);
  },
  'business.removeMember': as('DELETE', ({ member }) => `/business/members/${member}`),
  'business.sendInvite': admin('POST', '/business/send-invite', {
    email: uniqueEmail('invited'),
    role: 'VIEWER',
    accessPermissions: [],
  }),
  'business.setupIms': (context) =>
    admin('POST', '/ims/setup', { alertEmail: context.admin.email, timezone: 'Europe/Paris' })(context),
  'business.getImsConfig': admin('GET', '/ims/config'),
  'business.updateImsConfig': admin('PUT', '/ims/config', { slaEnabled: true }),
  'business.getSsoSettings': admin('GET', '/business/sso'),
  'business.updateSsoSettings': admin('PUT', '/business/sso', {
    enabled: true,
    protocol: 'OIDC',
    loginUrl: 'https://sso.example.com/login',
    domains: ['example.com'],
  }),
};
