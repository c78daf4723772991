import type { LocalWorkflow } from '#infra/local/workflow.ts';
import { signAckLink } from '#lib/notifications/ack-token.ts';
import {
  V1,
  byAdmin,
  byFreshKey,
  byKey,
  creating,
  expectOk,
  withIds,
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

const PLAYBOOK = {
  title: 'Failover',
  steps: [{ title: 'Check' }, { title: 'Restart', optional: true }, { title: 'Confirm' }],
  triggerConditions: { priority: 'HIGH' },
};

/** `<group>.<route key>` of incidents, problems, tickets, the service map and blast radius, the assistant, playbooks and the dashboard. */
export const INCIDENT_REQUESTS: Record<string, RouteRequests> = {
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

  'tickets.listTickets': byFreshKey('/tickets'),
  'tickets.listHistory': byAdmin('GET', '/tickets/history'),

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

  'dashboard.getMetrics': byKey('/dashboard/metrics'),
  'dashboard.getAnalytics': byAdmin('GET', '/dashboard/analytics?granularity=week'),
};
