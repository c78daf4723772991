import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { binary, created, ok } from '#lib/http/envelope.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { paged } from '#lib/http/pagination.ts';
import type { RouteResult } from '#lib/http/route.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { incidents } from '#lib/routes/incidents.ts';
import { HTML_TYPE } from '#lib/http/content-types.ts';

/**
 * Each route loads its service on its first request (`import()`, a chunk of its own): a cold start carries
 * the HTTP layer and the route table, and the AI routes' analysis engine and the PDF renderer only load
 * when asked for (docs/performance.md, "Bundles and cold imports").
 */
const incidentModule = onFirstUse(() => import('#lib/incidents/incident.ts'));
const exportIncidentPdfModule = onFirstUse(() => import('#lib/reports/export-incident-pdf.ts'));
const previewIncidentIdModule = onFirstUse(() => import('#lib/incidents/preview-incident-id.ts'));
const createIncidentModule = onFirstUse(() => import('#lib/incidents/create-incident.ts'));
const listIncidentsModule = onFirstUse(() => import('#lib/incidents/list-incidents.ts'));
const incidentAnalyticsModule = onFirstUse(() => import('#lib/incidents/incident-analytics.ts'));
const getIncidentModule = onFirstUse(() => import('#lib/incidents/get-incident.ts'));
const incidentSignalsModule = onFirstUse(() => import('#lib/incidents/incident-signals.ts'));
const updateIncidentModule = onFirstUse(() => import('#lib/incidents/update-incident.ts'));
const deleteIncidentModule = onFirstUse(() => import('#lib/incidents/delete-incident.ts'));
const addCommentModule = onFirstUse(() => import('#lib/incidents/add-comment.ts'));
const resolveIncidentModule = onFirstUse(() => import('#lib/incidents/resolve-incident.ts'));
const customerKbModule = onFirstUse(() => import('#lib/analysis/customer-kb.ts'));
const ackLinkModule = onFirstUse(() => import('#lib/notifications/ack-link.ts'));
const escalateNowModule = onFirstUse(() => import('#lib/incidents/escalate-now.ts'));

const view = async () => (await incidentModule()).incidentView;
const insights = onFirstUse(() => import('#lib/analysis/incident-insights.ts'));
const thread = onFirstUse(() => import('#lib/incidents/incident-thread.ts'));

/** Pages of one request's answer: never cached, since the same address answers differently once used. */
const htmlPage = (html: string): RouteResult =>
  binary(HTML_TYPE, Buffer.from(html, 'utf8'), { 'cache-control': 'no-store' });

const pdfResponse = async (scope: Scope, request: { id: string; note?: string }): Promise<RouteResult> => {
  const { exportIncidentPdf } = await exportIncidentPdfModule();
  const { fileName, pdf } = await exportIncidentPdf(scope, request);
  return binary('application/pdf', pdf, { 'content-disposition': `attachment; filename="${fileName}"` });
};

export const handler = createGroupHandler(incidents, {
  generateIncidentId: async ({ scope }) => {
    const { previewIncidentId } = await previewIncidentIdModule();
    return ok({ id: await previewIncidentId(scope) }, { message: 'Next incident id (a preview, not reserved)' });
  },
  createIncident: async ({ scope, body }) => {
    const { createIncident } = await createIncidentModule();
    return created((await view())(await createIncident(scope, body)), { message: 'Incident created' });
  },
  listIncidents: async ({ scope, query }) => {
    const { listIncidents } = await listIncidentsModule();
    const { items, ...paging } = await listIncidents(scope, query);
    return paged(items.map(await view()), query, paging);
  },
  getIncidentAnalytics: async ({ scope }) => {
    const { incidentAnalytics } = await incidentAnalyticsModule();
    return ok(await incidentAnalytics(scope));
  },
  getIncident: async ({ scope, params }) => {
    const { findIncident } = await getIncidentModule();
    return ok((await view())(await findIncident(scope, params.id)));
  },
  listIncidentSignals: async ({ scope, params }) => {
    const { listIncidentSignals } = await incidentSignalsModule();
    return ok(await listIncidentSignals(scope, params.id));
  },
  updateIncident: async ({ scope, params, body }) => {
    const { updateIncident } = await updateIncidentModule();
    return ok((await view())(await updateIncident(scope, { id: params.id, changes: body })), {
      message: 'Incident updated',
    });
  },
  deleteIncident: async ({ scope, params }) => {
    const { deleteIncident } = await deleteIncidentModule();
    return ok(await deleteIncident(scope, params.id), { message: 'Incident deleted' });
  },
  addComment: async ({ scope, body }) => {
    const { addComment } = await addCommentModule();
    return created(await addComment(scope, body), { message: 'Comment added' });
  },
  listComments: async ({ scope, params }) => ok(await (await thread()).incidentComments(scope, params.ticketId)),
  listMessages: async ({ scope, params }) => ok(await (await thread()).incidentMessages(scope, params.ticketId)),
  escalateIncident: async ({ scope, params }) =>
    ok((await view())(await (await escalateNowModule()).escalateNow(scope, params.id)), {
      message: 'Incident escalated',
    }),
  resolveIncident: async ({ scope, params, body }) => {
    const { resolveIncident } = await resolveIncidentModule();
    return ok((await view())(await resolveIncident(scope, { id: params.id, ...body })), {
      message: 'Incident resolved',
    });
  },
  resolveWithCustomerKb: async ({ scope, params }) => {
    const { resolveWithKb } = await customerKbModule();
    const { incident, kbArticle } = await resolveWithKb(scope, params.id);
    return ok(
      { incident: (await view())(incident), kbArticle },
      { message: 'Incident resolved, knowledge-base article drafted' },
    );
  },
  getFiveWhys: async ({ scope, params }) => ok(await (await insights()).fiveWhys(scope, params.id)),
  getSuggestion: async ({ scope, params }) => ok(await (await insights()).suggestions(scope, params.id)),
  getStakeholderMessage: async ({ scope, params }) => ok(await (await insights()).stakeholderMessage(scope, params.id)),
  generatePdf: async ({ scope, body }) => pdfResponse(scope, { id: body.incidentId }),
  showAckLink: async ({ accountScope, params }) =>
    htmlPage(await (await ackLinkModule()).ackLinkPage(accountScope, params.token)),
  useAckLink: async ({ accountScope, params }) =>
    htmlPage(await (await ackLinkModule()).useAckLink(accountScope, params.token)),
  generateTopLevelPdf: async ({ scope, body }) => pdfResponse(scope, { id: body.id, note: body.description }),
});
