import { createHash } from 'node:crypto';
import { ConflictError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { findIncident } from '#lib/incidents/get-incident.ts';
import { analysisRepository } from './analysis-repository.ts';
import { serviceKey } from './evidence/service-names.ts';
import type { Outcome, Pattern } from './pattern.ts';
import { type OutcomeRecord, patternRepository } from './pattern-repository.ts';
import type { LearnInput } from './schemas.ts';

const DESCRIPTIONS: Record<string, (cause: string, service: string) => string> = {
  DEPLOY: (cause, service) => `Deploys of ${cause} break ${service}`,
  UPSTREAM: (cause, service) => `Failures of ${cause} disrupt ${service}`,
  SERVICE: (_cause, service) => `Faults inside ${service}`,
  UNKNOWN: (_cause, service) => `Incidents of ${service} with no known cause`,
};

export interface LearnedOutcome extends OutcomeRecord {
  patternId: string;
  previousOutcome: Outcome | null;
}

/**
 * Records the incident's outcome (one per incident, the latest wins) and moves the pattern counts: the
 * pattern is the kind of cause and where it struck, `sha256(kind | cause service | incident service)`.
 */
export const learnOutcome = async (scope: Scope, { incidentId, outcome }: LearnInput): Promise<LearnedOutcome> => {
  const { ports, workspaceId } = scope;
  const incident = await findIncident(scope, incidentId, 'incidentId');
  const analysis = await analysisRepository(ports.table, workspaceId).latestOfIncident(incident.id, 'COMPLETE');
  const hypothesis = analysis?.hypothesisResult;
  if (!analysis || !hypothesis) {
    throw new ConflictError('The incident has no completed analysis to learn from', [
      `incidentId: analyse ${incident.id} first`,
    ]);
  }
  const service = incident.serviceArea ?? hypothesis.suspect.service ?? 'an unnamed service';
  const cause = hypothesis.suspect.service ?? service;
  const patternKey = createHash('sha256')
    .update(`${hypothesis.suspect.kind}|${serviceKey(cause)}|${serviceKey(service)}`)
    .digest('hex')
    .slice(0, 32);
  const recordedAt = ports.clock.now().toISOString();
  const record: OutcomeRecord = {
    incidentId: incident.id,
    outcome,
    analysisId: analysis.analysisId,
    patternKey,
    recordedAt,
  };
  const patterns = patternRepository(ports.table, workspaceId);
  const previous = await patterns.putOutcome(record);
  const samePattern = previous?.patternKey === patternKey;
  if (previous && !samePattern) {
    await patterns.countInPattern(previous.patternKey, { [`outcome#${previous.outcome}`]: -1, occurrences: -1 });
  }
  const counts: Record<string, number> = { [`outcome#${outcome}`]: 1, occurrences: samePattern ? 0 : 1 };
  if (previous && samePattern) counts[`outcome#${previous.outcome}`] = (counts[`outcome#${previous.outcome}`] ?? 0) - 1;
  await patterns.countInPattern(patternKey, counts, {
    patternKey,
    description: (DESCRIPTIONS[hypothesis.suspect.kind] ?? DESCRIPTIONS.UNKNOWN)?.(cause, service) ?? service,
    suspectKind: hypothesis.suspect.kind,
    suspectService: hypothesis.suspect.service,
    affectedServices: [...new Set([service, ...(hypothesis.suspect.service ? [hypothesis.suspect.service] : [])])],
    fix: analysis.remediationResult?.remediationOptions[0]?.text ?? 'No fix was proposed',
    fixWorked: outcome === 'RESOLVED',
    at: recordedAt,
  });
  return { ...record, patternId: patternKey, previousOutcome: previous?.outcome ?? null };
};

/** Most frequent first, then the most recently seen. */
export const listPatterns = async ({ ports: { table }, workspaceId }: Scope): Promise<Pattern[]> =>
  (await patternRepository(table, workspaceId).listPatterns())
    .filter((pattern) => pattern.occurrences > 0)
    .sort((a, b) => b.occurrences - a.occurrences || b.lastSeen.localeCompare(a.lastSeen));
