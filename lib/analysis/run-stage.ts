import { reasonerOf } from './engine/reasoner-of.ts';
import { type AccountScope, systemScope } from '#lib/identity/scope.ts';
import { findIncident } from '#lib/incidents/get-incident.ts';
import type { Evidence } from '#lib/ports/reasoner/evidence.ts';
import type { Analysis, AnalysisStage, AnalysisState } from './analysis.ts';
import { analysisClaimRepository } from './analysis-claim-repository.ts';
import { analysisRepository } from './analysis-repository.ts';
import { analysisTimingRepository } from './analysis-timing-repository.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';

/**
 * The evidence checks, which only the first stage runs: a chunk loaded by it, so the three reasoning stages and
 * MarkFailed, each a cold start of their own as often as not, do not load the checks and the service map.
 */
const evidenceChecks = onFirstUse(() => import('./evidence/gather-evidence.ts'));

/** What Step Functions' Catch puts in `$.error` of the state. */
interface CaughtError {
  Error?: string;
  Cause?: string;
}

/** A Lambda error's Cause is its JSON (`errorMessage`, ...); anything else is taken as it is. */
const reasonOf = (error: CaughtError | undefined): string => {
  if (!error) return 'A stage of the analysis failed';
  try {
    const cause = JSON.parse(error.Cause ?? '') as { errorMessage?: string; errorType?: string };
    if (cause.errorMessage) return `${cause.errorType ?? error.Error ?? 'Error'}: ${cause.errorMessage}`.slice(0, 500);
  } catch {
    // Not JSON: the cause is plain text.
  }
  return `${error.Error ?? 'Error'}: ${error.Cause ?? 'no cause given'}`.slice(0, 500);
};

/** A stage that finds its analysis gone or finished fails, so the execution ends without writing. */
const needed = <T>(value: T | null | undefined, what: string): T => {
  if (value === undefined || value === null) throw new Error(`${what} is missing`);
  return value;
};

/**
 * One stage of the analysis state machine (docs/analysis.md): context gathering stores the evidence, the
 * three thinking stages each store their result, the last one completes the analysis and measures it,
 * and `failed` (the Catch path) records FAILED with the reason. Each writes only while the analysis is
 * PROCESSING, so a retried stage overwrites its own result and a late one writes nothing.
 */
export const runAnalysisStage = async (
  { ports }: AccountScope,
  { stage, input }: { stage: AnalysisStage; input: AnalysisState & { error?: CaughtError } },
): Promise<AnalysisState> => {
  const { workspaceId, analysisId, incidentId, requestedAt } = input;
  const state: AnalysisState = { workspaceId, analysisId, incidentId, requestedAt };
  const scope = systemScope(workspaceId, ports);
  const analyses = analysisRepository(ports.table, workspaceId);
  const now = () => ports.clock.now().toISOString();
  const release = () => analysisClaimRepository(ports.table, workspaceId).releaseClaim(incidentId, analysisId);

  if (stage === 'failed') {
    await analyses.finishAnalysis(analysisId, {
      status: 'FAILED',
      stage,
      at: now(),
      failureReason: reasonOf(input.error),
    });
    await release();
    return state;
  }
  if (stage === 'context-gathering') {
    const { gatherEvidence } = await evidenceChecks();
    const evidence = await gatherEvidence(scope, await findIncident(scope, incidentId));
    await analyses.putEvidence(analysisId, evidence);
    if (!(await analyses.writeStageResult(analysisId, stage, { asOf: evidence.gatheredAt })))
      throw new Error(`analysis ${analysisId} is not running`);
    return state;
  }
  const [analysis, evidence]: [Analysis, Evidence] = await Promise.all([
    analyses.findAnalysis(analysisId).then((found) => needed(found, `analysis ${analysisId}`)),
    analyses.findEvidence(analysisId).then((found) => needed(found, `the evidence of analysis ${analysisId}`)),
  ]);
  const write = async (results: Parameters<typeof analyses.writeStageResult>[2]) => {
    if (!(await analyses.writeStageResult(analysisId, stage, results))) {
      throw new Error(`analysis ${analysisId} is not running`);
    }
  };
  if (stage === 'hypothesis-generation') {
    await write({ hypothesisResult: await reasonerOf(scope).hypothesize(evidence) });
    return state;
  }
  const hypothesis = needed(analysis.hypothesisResult, 'the hypothesis');
  if (stage === 'impact-assessment') {
    await write({ impactResult: await reasonerOf(scope).assessImpact(evidence, hypothesis) });
    return state;
  }
  const impact = needed(analysis.impactResult, 'the impact assessment');
  await write({ remediationResult: await reasonerOf(scope).planRemediation(evidence, hypothesis, impact) });
  const finishedAt = now();
  if (await analyses.finishAnalysis(analysisId, { status: 'COMPLETE', stage, at: finishedAt })) {
    const seconds = (Date.parse(finishedAt) - Date.parse(requestedAt)) / 1000;
    await analysisTimingRepository(ports.table, workspaceId).recordDuration(seconds, finishedAt);
  }
  await release();
  return state;
};
