import { renderIncidentReportPdf } from '#lib/reports/pdf/render.ts';
import { buildIncidentReport } from './build-incident-report.ts';
import type { Scope } from '#lib/identity/scope.ts';

/** The incident report as a PDF, with the file name clients save it under. */
export const exportIncidentPdf = async (
  scope: Scope,
  { id: incidentId, note }: { id: string; note?: string },
): Promise<{ fileName: string; pdf: Buffer }> => {
  const report = await buildIncidentReport(scope, incidentId, note);
  return { fileName: `${report.incident.id}.pdf`, pdf: await renderIncidentReportPdf(report) };
};
