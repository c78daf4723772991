import { binary, created, ok } from '#lib/http/envelope.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { paged } from '#lib/http/pagination.ts';
import type { RouteResult } from '#lib/http/route.ts';
import { addComment } from '#lib/incidents/add-comment.ts';
import { createIncident } from '#lib/incidents/create-incident.ts';
import { deleteIncident } from '#lib/incidents/delete-incident.ts';
import { exportIncidentPdf } from '#lib/incidents/export-incident-pdf.ts';
import { findIncident } from '#lib/incidents/get-incident.ts';
import { incidentView } from '#lib/incidents/incident.ts';
import { incidentAnalytics } from '#lib/incidents/incident-analytics.ts';
import { previewIncidentId } from '#lib/incidents/preview-incident-id.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { listIncidentSignals } from '#lib/incidents/incident-signals.ts';
import { incidentComments, incidentMessages } from '#lib/incidents/incident-thread.ts';
import { listIncidents } from '#lib/incidents/list-incidents.ts';
import { resolveIncident } from '#lib/incidents/resolve-incident.ts';
import { updateIncident } from '#lib/incidents/update-incident.ts';
import { incidents } from '#lib/routes/incidents.ts';

const pdfResponse = async (scope: Scope, request: { id: string; note?: string }): Promise<RouteResult> => {
  const { fileName, pdf } = await exportIncidentPdf(scope, request);
  return binary('application/pdf', pdf, { 'content-disposition': `attachment; filename="${fileName}"` });
};

/** The analysis engine is loaded by the first AI route, so the other routes' cold start does not carry it. */
const insights = () => import('#lib/analysis/incident-insights.ts');

export const handler = createGroupHandler(incidents, {
  generateIncidentId: async (request) =>
    ok({ id: await previewIncidentId(request.scope) }, { message: 'Next incident id (a preview, not reserved)' }),
  createIncident: async (request) =>
    created(incidentView(await createIncident(request.scope, request.body)), { message: 'Incident created' }),
  listIncidents: async (request) => {
    const { items, ...paging } = await listIncidents(request.scope, request.query);
    return paged(items.map(incidentView), request.query, paging);
  },
  getIncidentAnalytics: async (request) => ok(await incidentAnalytics(request.scope)),
  getIncident: async (request) => ok(incidentView(await findIncident(request.scope, request.params.id))),
  listIncidentSignals: async ({ scope, params }) => ok(await listIncidentSignals(scope, params.id)),
  updateIncident: async (request) =>
    ok(incidentView(await updateIncident(request.scope, { id: request.params.id, changes: request.body })), {
      message: 'Incident updated',
    }),
  deleteIncident: async (request) =>
    ok(await deleteIncident(request.scope, request.params.id), { message: 'Incident deleted' }),
  addComment: async (request) => created(await addComment(request.scope, request.body), { message: 'Comment added' }),
  listComments: async (request) => ok(await incidentComments(request.scope, request.params.ticketId)),
  listMessages: async (request) => ok(await incidentMessages(request.scope, request.params.ticketId)),
  resolveIncident: async (request) =>
    ok(incidentView(await resolveIncident(request.scope, { id: request.params.id, ...request.body })), {
      message: 'Incident resolved',
    }),
  resolveWithCustomerKb: async ({ scope, params }) => {
    const { resolveWithKb } = await import('#lib/analysis/customer-kb.ts');
    const { incident, kbArticle } = await resolveWithKb(scope, params.id);
    return ok(
      { incident: incidentView(incident), kbArticle },
      { message: 'Incident resolved, knowledge-base article drafted' },
    );
  },
  getFiveWhys: async ({ scope, params }) => ok(await (await insights()).fiveWhys(scope, params.id)),
  getSuggestion: async ({ scope, params }) => ok(await (await insights()).suggestions(scope, params.id)),
  getStakeholderMessage: async ({ scope, params }) => ok(await (await insights()).stakeholderMessage(scope, params.id)),
  generatePdf: async (request) => pdfResponse(request.scope, { id: request.body.incidentId }),
  generateTopLevelPdf: async (request) =>
    pdfResponse(request.scope, { id: request.body.id, note: request.body.description }),
});
