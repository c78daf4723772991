import { buildIncidentReport } from './build-incident-report.ts';
import type { Scope } from '#lib/identity/scope.ts';

/**
 * The incident report as a PDF, with the file name clients save it under. The renderer, with pdfmake
 * and its fonts (about 2 MB), is imported on the first export: the bundler makes it a chunk of its own,
 * so no other request of the group loads it at cold start.
 */
export const exportIncidentPdf = async (
  scope: Scope,
  { id: incidentId, note }: { id: string; note?: string },
): Promise<{ fileName: string; pdf: Buffer }> => {
  const [report, { renderIncidentReportPdf }] = await Promise.all([
    buildIncidentReport(scope, incidentId, note),
    import('#lib/reports/pdf/render.ts'),
  ]);
  return { fileName: `${report.incident.id}.pdf`, pdf: await renderIncidentReportPdf(report) };
};
