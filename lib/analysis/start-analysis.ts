import { ServiceUnavailableError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { findIncident } from '#lib/incidents/get-incident.ts';
import { log } from '#lib/log/logger.ts';
import type { Analysis, AnalysisState } from './analysis.ts';
import { analysisClaimRepository } from './analysis-claim-repository.ts';
import { analysisRepository } from './analysis-repository.ts';
import { analysisTimingRepository } from './analysis-timing-repository.ts';

const ATTEMPTS = 3;

export interface Started {
  analysis: Analysis;
  /** False when an analysis of the incident was already running and is answered instead. */
  started: boolean;
}

/**
 * Starts an analysis of the incident (docs/data-model.md 5.15): the incident's claim, the PROCESSING item,
 * then the state machine under the analysis id (so a retried start is the same execution). An analysis
 * already running for the incident is answered instead of a second one.
 */
export const startAnalysis = async (scope: Scope, incidentId: string): Promise<Started> => {
  const { ports, workspaceId } = scope;
  const incident = await findIncident(scope, incidentId, 'incidentId');
  const analyses = analysisRepository(ports.table, workspaceId);
  const claims = analysisClaimRepository(ports.table, workspaceId);
  const analysisId = ports.ids.sortable();
  const now = ports.clock.now().toISOString();
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (await claims.claimIncident(incident.id, analysisId, now)) break;
    const holder = await claims.claimHolder(incident.id);
    if (!holder) continue;
    const running = await analyses.findAnalysis(holder);
    if (running?.status === 'PROCESSING') return { analysis: running, started: false };
    if (await claims.takeOverClaim(incident.id, holder, analysisId, now)) break;
    if (attempt === ATTEMPTS - 1) throw new ServiceUnavailableError('The incident is being analysed; try again');
  }
  const analysis: Analysis = {
    analysisId,
    incidentId: incident.id,
    status: 'PROCESSING',
    stage: 'queued',
    estimatedCompletionSeconds: await analysisTimingRepository(ports.table, workspaceId).estimateSeconds(),
    createdAt: now,
    asOf: null,
    completedAt: null,
    failureReason: null,
    hypothesisResult: null,
    impactResult: null,
    remediationResult: null,
  };
  await analyses.insertAnalysis(analysis);
  const state: AnalysisState = { workspaceId, analysisId, incidentId: incident.id, requestedAt: now };
  try {
    await ports.workflow.start('analysis', state, analysisId);
  } catch (error) {
    log.error('the analysis workflow did not start', { analysisId, error });
    await analyses.finishAnalysis(analysisId, {
      status: 'FAILED',
      stage: 'failed',
      at: ports.clock.now().toISOString(),
      failureReason: 'The analysis workflow could not be started',
    });
    await claims.releaseClaim(incident.id, analysisId);
    throw new ServiceUnavailableError('The analysis could not be started; try again');
  }
  return { analysis, started: true };
};
