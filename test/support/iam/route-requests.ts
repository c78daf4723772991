import type { LocalWorkflow } from '#infra/local/workflow.ts';
import { ROUTED_SENDERS, SIGNED_SENDERS } from '#lib/ingestion/senders/index.ts';
import { ingestRouteKey } from '#lib/ingestion/senders/sender.ts';
import { signAckLink } from '#lib/notifications/ack-token.ts';
import { INTEGRATION_REQUESTS } from './integration-requests.ts';
import { PUSH_REQUESTS } from './push-requests.ts';
import { CHANGE_ENQUEUE, ENQUEUE, fixtureOf, postEvent } from '../../event-apis/support.ts';
import { publishSsoProof } from '../fake-network.ts';
import { joinAs, latestOtp, uniqueEmail } from '../accounts.ts';
import { CODE_ENGINE_REQUESTS } from './code-engine-requests.ts';
import { HIGH_INCIDENT_POLICY } from '../../sla/support.ts';
import {
  PASSWORD,
  V1,
  byAdmin,
  withIds,
  byFreshKey,
  byKey,
  creating,
  expectOk,
  fixturesOf,
  invitation,
  oauthPerson,
  queuedAlertGroup,
  registerDeveloper,
  snsFixtures,
  unverifiedDeveloper,
  type RequestContext,
  type RouteRequests,
} from './request-helpers.ts';

/** An acknowledge link of the incident, as a page to the admin (a member) would carry it. */
const ackLinkPath = async ({ client, admin, ids }: RequestContext): Promise<string> => {
  const token = await signAckLink(client.stack.ports.signingKeys, {
    linkId: `least-privilege-${Math.random()}`,
    workspaceId: admin.user.businessId as string,
    incidentId: ids.incident as string,
    by: admin.email,
    userId: admin.user.id,
    channel: 'email',
    recipient: admin.email,
    event: 'OPENED',
    eventAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 60 * 60_000).toISOString(),
  });
  return `${V1}/ack/${token}`;
};

const signal = (name: string, metadata: Record<string, unknown> = {}) => ({
  name,
  source: 'least-privilege',
  severity: 'HIGH',
  metadata,
});

const silentRule = {
  name: 'Nights',
  startTime: '22:00',
  endTime: '06:00',
  timezone: 'Europe/Berlin',
  daysOfWeek: [1, 2, 3, 4, 5],
  teamScope: 'payments',
};

const heartbeat = { name: 'Nightly backup', intervalSeconds: 86_400, graceSeconds: 3600, serviceId: 'backups' };

/** The heartbeat's ping path, from the ping URL its create answered. */
const pingPath = ({ ids }: RequestContext): string => new URL(ids.heartbeatPingUrl as string).pathname;

/** An hour of maintenance of a service no other request's signal names, from now. */
const maintenance = () => ({
  serviceIds: ['billing-batch'],
  startsAt: new Date().toISOString(),
  endsAt: new Date(Date.now() + 3600_000).toISOString(),
  reason: 'Database upgrade',
});

/** A weekly rotation of the admin alone, from an hour ago. */
const scheduleOf = ({ admin }: RequestContext) => ({
  name: 'Checkout',
  timezone: 'Europe/Berlin',
  layers: [
    {
      start: new Date(Date.now() - 60 * 60_000).toISOString(),
      rotationType: 'weekly',
      handoffTime: '09:00',
      members: [admin.user.id],
    },
  ],
});

/** The admin at once, the lead's address five minutes later. */
const escalationPolicyOf = ({ admin }: RequestContext) => ({
  name: 'Checkout',
  levels: [
    { delayMinutes: 0, targets: [{ type: 'member', id: admin.user.id }] },
    { delayMinutes: 5, targets: [{ type: 'email', address: 'lead@example.com' }] },
  ],
});

const PLAYBOOK = {
  title: 'Failover',
  steps: [{ title: 'Check' }, { title: 'Restart', optional: true }, { title: 'Confirm' }],
  triggerConditions: { priority: 'HIGH' },
};

/** `<group>.<route key>` of every built route: the request that exercises it, and through it the function's grants. */
export const ROUTE_REQUESTS: Record<string, RouteRequests> = {
  'health.getHealth': byAdmin('GET', '/health'),
  'docs.getOpenApiDocument': byAdmin('GET', '/openapi.json'),
  'docs.getDocsPage': byAdmin('GET', '/docs'),
  'docs.getDocsScript': byAdmin('GET', '/docs/swagger-ui-bundle.js'),
  'docs.getDocsStylesheet': byAdmin('GET', '/docs/swagger-ui.css'),
  'docs.getDocsFile': byAdmin('GET', '/docs/decisions.md'),
  'docs.getSpecFile': byAdmin('GET', '/docs/spec/DECISIONS.md'),

  'auth.login': ({ client, admin: { email, password } }) =>
    client.request('POST', `${V1}/auth/login`, { email, password }),
  'auth.refreshToken': ({ client, admin: { refreshToken } }) =>
    client.request('POST', `${V1}/auth/refresh-token`, { refreshToken }),
  // A login of its own, so the admin's tokens the other requests use keep working.
  'auth.logout': async ({ client, admin: { email, password } }) => {
    const signedIn = await client.request('POST', `${V1}/auth/login`, { email, password });
    return client.request('POST', `${V1}/auth/logout`, { refreshToken: signedIn.body.data.refreshToken });
  },
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
    return context.client.request('POST', `${V1}/auth/verify_email`, { email, otp, password: PASSWORD });
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
  'api-keys.listKeys': byAdmin('GET', '/apikey/apikeys'),
  'api-keys.rotateKey': withIds('POST', ({ apiKey }) => `/apikey/${apiKey}/rotate`),
  'api-keys.revokeKey': withIds('POST', ({ apiKey }) => `/apikey/${apiKey}/revoke`),
  'api-keys.updateKey': async (context) => {
    await creating(context, 'pausedKey', '/apikey/createapikey', {
      name: 'paused',
      environment: 'PRODUCTION',
      scopes: ['incidents:read'],
    });
    return withIds('PUT', ({ pausedKey }) => `/apikey/${pausedKey}`, { isActive: false })(context);
  },
  'api-keys.deleteKey': withIds('DELETE', ({ apiKey }) => `/apikey/${apiKey}`),

  'incidents.generateIncidentId': byAdmin('GET', '/incident-ticket/generate-id'),
  'incidents.createIncident': (context) =>
    creating(context, 'incident', '/incident-ticket', { summary: 'Checkout is down', priority: 'HIGH' }),
  'incidents.listIncidents': byKey('/incident-ticket'),
  'incidents.getIncidentAnalytics': byAdmin('GET', '/incident-ticket/analytics'),
  'incidents.getIncident': withIds('GET', ({ incident }) => `/incident-ticket/${incident}`),
  'incidents.listIncidentSignals': withIds('GET', ({ incident }) => `/incident-ticket/${incident}/signals`),
  'incidents.updateIncident': withIds('PUT', ({ incident }) => `/incident-ticket/${incident}`, {
    status: 'INVESTIGATION',
  }),
  'incidents.deleteIncident': async (context) => {
    await creating(context, 'doomedIncident', '/incident-ticket', { summary: 'A mistake', priority: 'LOW' });
    return withIds('DELETE', ({ doomedIncident }) => `/incident-ticket/${doomedIncident}`)(context);
  },
  'incidents.addComment': (context) =>
    byAdmin('POST', '/incident-ticket/comment', { ticketId: context.ids.incident, content: 'Rolled back' })(context),
  'incidents.listComments': withIds('GET', ({ incident }) => `/incident-ticket/comment/${incident}`),
  'incidents.listMessages': withIds('GET', ({ incident }) => `/incident-ticket/message/${incident}`),
  'incidents.escalateIncident': async (context) => {
    await creating(context, 'escalatedIncident', '/incident-ticket', { summary: 'Queue stuck', priority: 'HIGH' });
    return withIds('POST', ({ escalatedIncident }) => `/incident-ticket/${escalatedIncident}/escalate`)(context);
  },
  'incidents.resolveIncident': withIds('POST', ({ incident }) => `/incident-ticket/resolve/${incident}`),
  'incidents.resolveWithCustomerKb': async (context) => {
    await creating(context, 'kbIncident', '/incident-ticket', { summary: 'Payments fail', priority: 'HIGH' });
    return withIds('POST', ({ kbIncident }) => `/incident-ticket/resolve/customer-kb/${kbIncident}`)(context);
  },
  'incidents.getFiveWhys': withIds('GET', ({ incident }) => `/incident-ticket/resolve/ai/five-whys/${incident}`),
  'incidents.getSuggestion': withIds('GET', ({ incident }) => `/incident-ticket/resolve/ai/suggestion/${incident}`),
  'incidents.getStakeholderMessage': withIds(
    'GET',
    ({ incident }) => `/incident-ticket/resolve/ai/stakeholder/${incident}`,
  ),
  'incidents.generatePdf': (context) =>
    byAdmin('POST', '/incident-ticket/generate-pdf', { incidentId: context.ids.incident })(context),
  'incidents.showAckLink': async (context) => context.client.request('GET', await ackLinkPath(context)),
  'incidents.useAckLink': async (context) => context.client.request('POST', await ackLinkPath(context)),
  'incidents.generateTopLevelPdf': (context) => byAdmin('POST', '/generate-pdf', { id: context.ids.incident })(context),

  'problems.createProblem': (context) =>
    creating(context, 'problem', '/problems', { title: 'Flaky payments', description: 'Retries pile up' }),
  'problems.listProblems': byKey('/problems'),
  'problems.getProblem': withIds('GET', ({ problem }) => `/problems/${problem}`),
  'problems.updateProblem': withIds('PUT', ({ problem }) => `/problems/${problem}`, { priority: 'HIGH' }),
  'problems.deleteProblem': withIds('DELETE', ({ problem }) => `/problems/${problem}`),

  'service-map.getTopology': byKey('/service-map/topology'),
  'service-map.listServices': byKey('/service-map'),
  'service-map.getService': async (context) => {
    await creating(context, 'service', '/service-map', { name: 'checkout' });
    return withIds('GET', ({ service }) => `/service-map/${service}`)(context);
  },
  'service-map.getDownstreamImpact': withIds('GET', ({ service }) => `/service-map/${service}/downstream-impact`),
  'service-map.createService': (context) => creating(context, 'dependent', '/service-map', { name: 'storefront' }),
  'service-map.createDependency': (context) =>
    creating(context, 'dependency', '/service-map/dependencies', {
      sourceId: context.ids.dependent,
      targetId: context.ids.service,
    }),
  'service-map.updateService': withIds('PATCH', ({ service }) => `/service-map/${service}`, { name: 'checkout-api' }),
  'service-map.deleteService': withIds('DELETE', ({ dependent }) => `/service-map/${dependent}`),
  'service-map.deleteDependency': async (context) => {
    await creating(context, 'mobile', '/service-map', { name: 'mobile' });
    await creating(context, 'edge', '/service-map/dependencies', {
      sourceId: context.ids.mobile,
      targetId: context.ids.service,
    });
    return withIds('DELETE', ({ edge }) => `/service-map/dependencies/${edge}`)(context);
  },

  'blast-radius.calculate': (context) =>
    creating(context, 'report', '/blast-radius/calculate', { serviceId: context.ids.service }, 'reportId'),
  'blast-radius.listReports': byKey('/blast-radius'),
  'blast-radius.getRiskSummary': byKey('/blast-radius/risk-summary'),
  'blast-radius.listTriggerReports': withIds(
    'GET',
    ({ signal: id }) => `/blast-radius/trigger/${id}`,
    undefined,
    'key',
  ),
  'blast-radius.getReport': withIds('GET', ({ report }) => `/blast-radius/${report}`, undefined, 'key'),

  'signals.listSignals': byKey('/signals'),
  'signals.getSignalStats': byKey('/signals/stats'),
  'signals.getSignal': async (context) => {
    // Metadata past what an item holds inline is an object, which reading the signal loads.
    await creating(context, 'largeSignal', '/signals', signal('large', { dump: 'y'.repeat(20 * 1024) }));
    return withIds('GET', ({ largeSignal }) => `/signals/${largeSignal}`)(context);
  },
  'signals.createSignal': (context) => creating(context, 'signal', '/signals', signal('disk full')),
  'signals.createSignalsBulk': byAdmin('POST', '/signals/bulk', {
    signals: [signal('cpu high'), signal('cpu higher')],
  }),
  'signals.acknowledgeSignal': withIds('PATCH', ({ signal: id }) => `/signals/${id}/acknowledge`, { note: 'on it' }),
  'signals.resolveSignal': withIds('PATCH', ({ signal: id }) => `/signals/${id}/resolve`, {}),
  'signals.suppressSignal': withIds('PATCH', ({ largeSignal }) => `/signals/${largeSignal}/suppress`, {
    reason: 'noise',
  }),

  'correlation-rules.listRules': byKey('/correlation-rules'),
  'correlation-rules.getRule': async (context) => {
    await creating(context, 'rule', '/correlation-rules', { name: 'Checkout', action: { priority: 'HIGH' } });
    return withIds('GET', ({ rule }) => `/correlation-rules/${rule}`)(context);
  },
  'correlation-rules.createRule': byAdmin('POST', '/correlation-rules', {
    name: 'Storage',
    action: { priority: 'LOW' },
  }),
  'correlation-rules.updateRule': withIds('PUT', ({ rule }) => `/correlation-rules/${rule}`, { windowMinutes: 15 }),
  'correlation-rules.deleteRule': withIds('DELETE', ({ rule }) => `/correlation-rules/${rule}`),

  // Every sender's fixtures as it posts them; below, the senders whose deliveries are not their fixtures as they are.
  ...Object.fromEntries(ROUTED_SENDERS.map((sender) => [`ingestion.${ingestRouteKey(sender)}`, fixturesOf(sender)])),
  'ingestion.ingestMetricsAlerts': async (context) => [
    ...(await fixturesOf('metrics-alerts')(context)),
    await queuedAlertGroup(context),
  ],
  'ingestion.ingestWebhook': ({ client, keyHeaders }) =>
    client.request(
      'POST',
      `${V1}/ingestion/webhook`,
      { source: 'checkout', title: 'Payment errors above 5%', severity: 'critical', status: 'firing' },
      keyHeaders,
    ),
  'ingestion.ingestCloudwatch': snsFixtures,
  // The API key as the routing key, which the event APIs take besides an integration key.
  'ingestion.enqueueEventV2': ({ client, keyHeaders }) =>
    postEvent(client, ENQUEUE, fixtureOf('events-v2', 'pdjs-trigger.json', { routing_key: keyHeaders['x-api-key'] })),
  'ingestion.enqueueChangeEventV2': ({ client, keyHeaders }) =>
    postEvent(
      client,
      CHANGE_ENQUEUE,
      fixtureOf('events-v2', 'change-event.json', { routing_key: keyHeaders['x-api-key'] }),
    ),
  'ingestion.createOpsgenieAlert': ({ client, keyHeaders }) =>
    postEvent(client, `${V1}/opsgenie/v2/alerts`, fixtureOf('opsgenie', 'alertmanager-0.25-opsgenie-create.json'), {
      authorization: `GenieKey ${keyHeaders['x-api-key']}`,
    }),
  'ingestion.closeOpsgenieAlert': ({ client, keyHeaders }) =>
    postEvent(
      client,
      `${V1}/opsgenie/v2/alerts/checkout-alias/close?identifierType=alias`,
      {},
      {
        authorization: `GenieKey ${keyHeaders['x-api-key']}`,
      },
    ),
  'ingestion.acknowledgeOpsgenieAlert': ({ client, keyHeaders }) =>
    postEvent(
      client,
      `${V1}/opsgenie/v2/alerts/checkout-alias/acknowledge`,
      {},
      {
        authorization: `GenieKey ${keyHeaders['x-api-key']}`,
      },
    ),
  'ingestion.createIntegrationKey': (context) =>
    creating(context, 'integrationKey', '/ingestion/integration-keys', { name: 'checkout', serviceId: 'checkout' }),
  'ingestion.listIntegrationKeys': byAdmin('GET', '/ingestion/integration-keys'),
  'ingestion.deleteIntegrationKey': withIds(
    'DELETE',
    ({ integrationKey }) => `/ingestion/integration-keys/${integrationKey}`,
  ),
  'ingestion.getOrchestratorManifest': byKey('/ingestion/orchestrator/manifest'),
  'ingestion.listWebhookSecrets': byAdmin('GET', '/ingestion/secrets'),
  'ingestion.putWebhookSecret': byAdmin('PUT', `/ingestion/secrets/${SIGNED_SENDERS[0]}`, { secret: 's'.repeat(32) }),
  'ingestion.deleteWebhookSecret': byAdmin('DELETE', `/ingestion/secrets/${SIGNED_SENDERS[0]}`),

  ...CODE_ENGINE_REQUESTS,

  'playbooks.createPlaybook': (context) => creating(context, 'playbook', '/playbooks', PLAYBOOK),
  'playbooks.listPlaybooks': byKey('/playbooks'),
  'playbooks.getPlaybookStats': byKey('/playbooks/stats'),
  'playbooks.getPlaybook': withIds('GET', ({ playbook }) => `/playbooks/${playbook}`),
  'playbooks.updatePlaybook': withIds('PUT', ({ playbook }) => `/playbooks/${playbook}`, { description: 'Runbook' }),
  'playbooks.publishPlaybook': withIds('POST', ({ playbook }) => `/playbooks/${playbook}/publish`),
  'playbooks.deletePlaybook': async (context) => {
    // Published and run once, so the delete finds versions and executions to remove too.
    await creating(context, 'doomedPlaybook', '/playbooks', PLAYBOOK);
    expectOk(await withIds('POST', ({ doomedPlaybook }) => `/playbooks/${doomedPlaybook}/publish`)(context), 'publish');
    expectOk(
      await withIds('POST', ({ doomedPlaybook }) => `/playbooks/${doomedPlaybook}/execute`, {})(context),
      'execute',
    );
    return withIds('DELETE', ({ doomedPlaybook }) => `/playbooks/${doomedPlaybook}`)(context);
  },
  'playbooks.matchPlaybook': (context) =>
    byAdmin('POST', '/playbooks/match', { incidentId: context.ids.incident, priority: 'HIGH' })(context),
  'playbooks.executePlaybook': (context) =>
    creating(
      context,
      'execution',
      `/playbooks/${context.ids.playbook}/execute`,
      { incidentId: context.ids.incident },
      'executionId',
    ),
  'playbooks.listExecutions': byKey('/playbooks/executions/list'),
  'playbooks.getExecution': withIds('GET', ({ execution }) => `/playbooks/executions/${execution}`),
  'playbooks.completeStep': withIds(
    'POST',
    ({ execution }) => `/playbooks/executions/${execution}/steps/0/complete`,
    {},
  ),
  'playbooks.skipStep': withIds('POST', ({ execution }) => `/playbooks/executions/${execution}/steps/1/skip`, {}),
  'playbooks.recordAction': withIds('POST', ({ execution }) => `/playbooks/executions/${execution}/actions`, {
    description: 'Paged the vendor',
  }),
  'playbooks.cancelExecution': withIds('POST', ({ execution }) => `/playbooks/executions/${execution}/cancel`, {}),
  'playbooks.getExecutionSuggestions': withIds(
    'GET',
    ({ execution }) => `/playbooks/executions/${execution}/suggestions`,
  ),
  'playbooks.getPatterns': byKey('/playbooks/patterns'),

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
  'dashboard.getMetrics': byKey('/dashboard/metrics'),
  'dashboard.getAnalytics': byAdmin('GET', '/dashboard/analytics?granularity=week'),

  'sla-policies.createPolicy': (context) => creating(context, 'slaPolicy', '/sla-policies', HIGH_INCIDENT_POLICY),
  'sla-policies.listPolicies': byKey('/sla-policies'),
  'sla-policies.getPolicy': withIds('GET', ({ slaPolicy: id }) => `/sla-policies/${id}`, undefined, 'key'),
  'sla-policies.replacePolicy': withIds('PUT', ({ slaPolicy: id }) => `/sla-policies/${id}`, HIGH_INCIDENT_POLICY),
  'sla-policies.deletePolicy': withIds('DELETE', ({ slaPolicy: id }) => `/sla-policies/${id}`),

  'silent-hours.listRules': byKey('/silent-hours'),
  'silent-hours.replaceRules': async (context) => {
    const reply = await byAdmin('POST', '/silent-hours', { rules: [silentRule, silentRule] })(context);
    context.ids.silentRule = reply.body.data.rules[0].id;
    return reply;
  },
  'silent-hours.replaceRule': withIds('PUT', ({ silentRule: id }) => `/silent-hours/${id}`, silentRule),
  'silent-hours.deleteRule': withIds('DELETE', ({ silentRule: id }) => `/silent-hours/${id}`),

  'heartbeats.createHeartbeat': async (context) => {
    const reply = await creating(context, 'heartbeat', '/heartbeats', heartbeat);
    context.ids.heartbeatPingUrl = reply.body.data.pingUrl;
    return reply;
  },
  'heartbeats.listHeartbeats': byKey('/heartbeats'),
  'heartbeats.getHeartbeat': withIds('GET', ({ heartbeat: id }) => `/heartbeats/${id}`, undefined, 'key'),
  'heartbeats.replaceHeartbeat': withIds('PUT', ({ heartbeat: id }) => `/heartbeats/${id}`, heartbeat),
  'heartbeat-ping.pingHeartbeatGet': (context) => context.client.request('GET', pingPath(context)),
  'heartbeat-ping.pingHeartbeatPost': (context) => context.client.request('POST', pingPath(context)),
  // A heartbeat of its own, so the first is still there, missed, when the SLA sweep runs a day later.
  'heartbeats.deleteHeartbeat': async (context) => {
    await creating(context, 'doomedHeartbeat', '/heartbeats', heartbeat);
    return withIds('DELETE', ({ doomedHeartbeat: id }) => `/heartbeats/${id}`)(context);
  },

  'maintenance-windows.createWindow': (context) =>
    creating(context, 'maintenanceWindow', '/maintenance-windows', maintenance()),
  'maintenance-windows.listWindows': byKey('/maintenance-windows'),
  'maintenance-windows.getWindow': withIds(
    'GET',
    ({ maintenanceWindow: id }) => `/maintenance-windows/${id}`,
    undefined,
    'key',
  ),
  'maintenance-windows.replaceWindow': (context) =>
    withIds('PUT', ({ maintenanceWindow: id }) => `/maintenance-windows/${id}`, maintenance())(context),
  'maintenance-windows.deleteWindow': withIds('DELETE', ({ maintenanceWindow: id }) => `/maintenance-windows/${id}`),
  'schedules.listSchedules': byKey('/schedules'),
  'schedules.createSchedule': async (context) => {
    const reply = await creating(context, 'schedule', '/schedules', scheduleOf(context));
    context.ids.calendarPath = new URL(reply.body.data.calendarUrl).pathname.replace(/^.*(?=\/api\/v1\/)/, '');
    return reply;
  },
  'schedules.getSchedule': withIds('GET', ({ schedule: id }) => `/schedules/${id}`, undefined, 'key'),
  'schedules.replaceSchedule': async (context) =>
    withIds('PUT', ({ schedule: id }) => `/schedules/${id}`, scheduleOf(context))(context),
  'schedules.createOverride': async (context) => {
    const start = new Date().toISOString();
    const end = new Date(Date.now() + 60 * 60_000).toISOString();
    const body = { userId: context.admin.user.id, start, end };
    return creating(context, 'override', `/schedules/${context.ids.schedule}/overrides`, body);
  },
  'schedules.listOverrides': withIds('GET', ({ schedule: id }) => `/schedules/${id}/overrides`, undefined, 'key'),
  'schedules.whoIsOnCall': withIds('GET', ({ schedule: id }) => `/schedules/${id}/on-call`, undefined, 'key'),
  'schedules.listShifts': withIds(
    'GET',
    ({ schedule: id }) => `/schedules/${id}/shifts?from=2026-01-01T00:00:00Z&to=2026-01-08T00:00:00Z`,
  ),
  'schedules.calendarFeed': ({ client, ids }) => client.request('GET', ids.calendarPath as string),
  'schedules.deleteOverride': withIds(
    'DELETE',
    ({ schedule, override }) => `/schedules/${schedule}/overrides/${override}`,
  ),
  'schedules.deleteSchedule': withIds('DELETE', ({ schedule: id }) => `/schedules/${id}`),
  'schedules.listEscalationPolicies': byKey('/escalation-policies'),
  'schedules.createEscalationPolicy': (context) =>
    creating(context, 'escalationPolicy', '/escalation-policies', escalationPolicyOf(context)),
  'schedules.getEscalationPolicy': withIds('GET', ({ escalationPolicy: id }) => `/escalation-policies/${id}`),
  'schedules.replaceEscalationPolicy': (context) =>
    withIds('PUT', ({ escalationPolicy: id }) => `/escalation-policies/${id}`, escalationPolicyOf(context))(context),
  'schedules.deleteEscalationPolicy': withIds('DELETE', ({ escalationPolicy: id }) => `/escalation-policies/${id}`),

  'pipelines.listRuns': byFreshKey('/pipelines'),
  'pipelines.getRun': async (context) => {
    const list = await context.client.request('GET', `${V1}/pipelines`, undefined, context.keyHeaders);
    const id = list.body.data.runs[0]?.id;
    return context.client.request('GET', `${V1}/pipelines/${id}`, undefined, context.admin.auth);
  },

  'tickets.listTickets': byFreshKey('/tickets'),
  'tickets.listHistory': byAdmin('GET', '/tickets/history'),

  'business.decodeInvite': async (context) =>
    context.client.request('POST', `${V1}/business/decode-invite`, { token: await invitation(context) }),
  'business.acceptInvite': async (context) =>
    context.client.request('POST', `${V1}/business/accept-invite`, {
      token: await invitation(context),
      password: PASSWORD,
      firstName: 'Grace',
      lastName: 'Hopper',
    }),
  'business.setupBusiness': byAdmin('PUT', '/business/setup', { businessName: 'Acme Operations' }),
  'business.listMembers': byAdmin('GET', '/business/get_members'),
  'business.changeMemberRole': async (context) => {
    context.ids.member = (await joinAs(context.client, context.admin, 'ENGINEER')).user.id;
    return withIds('PATCH', ({ member }) => `/business/members/${member}`, { role: 'VIEWER' })(context);
  },
  'assistant.analyse': async (context) => {
    const reply = await creating(
      context,
      'analysis',
      '/assistant/analyse',
      { incidentId: context.ids.incident },
      'analysisId',
    );
    // The stages run in the background: waiting for them exercises the analysis worker's grants too.
    await (context.client.stack.ports.workflow as LocalWorkflow).settled();
    return reply;
  },
  'assistant.listAnalyses': byKey('/assistant/analyses?status=COMPLETE'),
  'assistant.getAnalysisStatus': withIds('GET', ({ analysis }) => `/assistant/analyses/${analysis}`),
  'assistant.getAnalysis': withIds('GET', ({ incident }) => `/assistant/analysis/${incident}`),
  'assistant.generateReport': (context) =>
    byAdmin('POST', '/assistant/report', { analysisId: context.ids.analysis, audience: 'LEADERSHIP' })(context),
  'assistant.learn': (context) =>
    byAdmin('POST', '/assistant/learn', { incidentId: context.ids.incident, outcome: 'RESOLVED' })(context),
  'assistant.listPatterns': byKey('/assistant/patterns'),

  'business.removeMember': withIds('DELETE', ({ member }) => `/business/members/${member}`),
  'business.sendInvite': byAdmin('POST', '/business/send-invite', {
    email: uniqueEmail('invited'),
    role: 'VIEWER',
    accessPermissions: [],
  }),
  'business.setupIms': (context) =>
    byAdmin('POST', '/ims/setup', { alertEmail: context.admin.email, timezone: 'Europe/Paris' })(context),
  'business.getImsConfig': byAdmin('GET', '/ims/config'),
  'business.updateImsConfig': byAdmin('PUT', '/ims/config', { slaEnabled: true, autoEscalate: true }),
  'business.getSsoSettings': byAdmin('GET', '/business/sso'),
  'business.updateSsoSettings': (context) => {
    publishSsoProof(context.client.stack.ports.network, context.admin.user.businessId as string, 'example.com');
    return byAdmin('PUT', '/business/sso', {
      enabled: true,
      protocol: 'OIDC',
      loginUrl: 'https://sso.example.com/login',
      domains: ['example.com'],
    })(context);
  },

  ...INTEGRATION_REQUESTS,
  ...PUSH_REQUESTS,
};
