import type { Scope } from '#lib/identity/scope.ts';

/**
 * The incident report as a PDF, with the file name clients save it under. What gathers the report (its
 * signals, the workspace's time zone) and the renderer, with pdfmake and its fonts (about 2 MB), are
 * imported on the first export: the bundler makes them chunks of their own, so no other request of the
 * group loads them at cold start.
 */
export const exportIncidentPdf = async (
  scope: Scope,
  { id: incidentId, note }: { id: string; note?: string },
): Promise<{ fileName: string; pdf: Buffer }> => {
  const [{ buildIncidentReport }, { renderIncidentReportPdf }] = await Promise.all([
    import('./build-incident-report.ts'),
    import('#lib/reports/pdf/render.ts'),
  ]);
  const report = await buildIncidentReport(scope, incidentId, note);
  return { fileName: `${report.incident.id}.pdf`, pdf: await renderIncidentReportPdf(report) };
};
