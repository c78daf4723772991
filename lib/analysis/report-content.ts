import type { Evidence, EvidenceItem, IncidentContext } from '#lib/ports/reasoner/evidence.ts';
import { clockInWords, durationInWords, minutesBetween } from '#lib/contract/time-words.ts';
import type { Analysis, Audience } from './analysis.ts';
import { isPlainProse } from './plain-text.ts';

/** The incident's state when a report is written, which may be later than its analysis. */
export type IncidentNow = Pick<IncidentContext, 'status' | 'resolvedAt'>;

/** Resolved after its evidence was gathered: the analysis' texts speak of a problem that was still going on. */
const resolvedSince = (evidence: Evidence, now: IncidentNow): string | null =>
  evidence.incident.resolvedAt === null && now.resolvedAt !== null ? now.resolvedAt : null;

const cited = (ids: string[]) => (ids.length > 0 ? ` [${ids.join(', ')}]` : '');

const commandsFor = (analysis: Analysis, lead: EvidenceItem | undefined): string[] => {
  const suspect = analysis.hypothesisResult?.suspect;
  if (suspect?.kind === 'DEPLOY' && lead?.details.commitSha) {
    const sha = String(lead.details.commitSha);
    return [
      `git fetch origin && git revert --no-edit ${sha}   # in ${lead.details.repository}`,
      'git push origin HEAD   # then let the pipeline redeploy, or redeploy the previous release by hand',
      `Rollback: redeploy the release that preceded ${sha.slice(0, 7)} to ${lead.details.environment ?? 'the same environment'}; re-apply ${sha.slice(0, 7)} only with a fix.`,
    ];
  }
  if (suspect?.kind === 'UPSTREAM') {
    return [
      `Check ${suspect.service}: its own alerts and incident${lead ? ` (${lead.id})` : ''}; restore it first.`,
      `Rollback: none for ${analysis.incidentId}'s service itself; if ${suspect.service} was changed recently, roll that change back.`,
    ];
  }
  return ['Rollback: no change was identified to roll back; investigate the service before changing it.'];
};

/** Evidence, timeline, commands and rollback steps, with the evidence id behind every statement. */
const engineerReport = (analysis: Analysis, evidence: Evidence, now: IncidentNow): string => {
  const h = analysis.hypothesisResult;
  const i = analysis.impactResult;
  const r = analysis.remediationResult;
  const lead = evidence.items.find((item) => item.id === h?.suspect.evidenceId);
  // Times in words, in the workspace's zone, as every text of the analysis tells them.
  const when = (instant: string) => clockInWords(instant, evidence.timezone);
  const timeline = [...evidence.items]
    .filter((item) => item.at && item.kind !== 'PATTERN')
    .sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''))
    .map((item) => `- ${when(item.at ?? '')} ${item.summary} [${item.id}]`);
  const resolvedAt = resolvedSince(evidence, now);
  return [
    `# Incident ${analysis.incidentId}: engineering analysis`,
    `Evidence as of ${when(evidence.gatheredAt)}${resolvedAt ? `; the incident was resolved after it, at ${when(resolvedAt)}` : ''}.`,
    `## Hypothesis (confidence ${h?.confidence ?? 'n/a'})`,
    `${h?.hypothesis.text ?? 'No hypothesis.'}${cited(h?.hypothesis.evidenceIds ?? [])}`,
    `Root cause: ${h?.rootCause.text ?? 'unknown'}${cited(h?.rootCause.evidenceIds ?? [])}`,
    '## Impact',
    `${i?.impactAssessment.text ?? 'Not assessed.'}${cited(i?.impactAssessment.evidenceIds ?? [])}`,
    ...(i?.contributingFactors.map((claim) => `- ${claim.text}${cited(claim.evidenceIds)}`) ?? []),
    '## Evidence',
    ...evidence.items.map((item) => `- [${item.id}] (${item.kind}, strength ${item.strength}) ${item.summary}`),
    ...evidence.checks.filter((check) => check.note).map((check) => `- ${check.check}: ${check.note}`),
    '## Timeline',
    ...timeline,
    `- ${when(evidence.incident.createdAt)} Incident ${analysis.incidentId} opened`,
    ...(now.resolvedAt ? [`- ${when(now.resolvedAt)} Incident resolved`] : []),
    '## Remediation, in order',
    ...(r?.remediationOptions.map((claim, index) => `${index + 1}. ${claim.text}${cited(claim.evidenceIds)}`) ?? []),
    '## Commands and rollback',
    ...commandsFor(analysis, lead).map((line) => `    ${line}`),
    `Engine: ${h?.engine.name ?? 'default'}${h?.engine.fallbackReason ? ` (model ${h.engine.modelId} failed: ${h.engine.fallbackReason})` : ''}`,
  ].join('\n');
};

/** The time to recover in words: how long it took, or that it is not over and what similar ones took. */
export const timeToRecover = (evidence: Evidence): string => {
  const { incident } = evidence;
  if (incident.resolvedAt) {
    return `Service was restored after ${durationInWords(minutesBetween(incident.startedAt, incident.resolvedAt))}.`;
  }
  const past = evidence.items
    .map((item) => item.details.minutesToResolve)
    .filter((minutes): minutes is number => typeof minutes === 'number');
  const typical = past.length > 0 ? Math.round(past.reduce((sum, minutes) => sum + minutes, 0) / past.length) : null;
  return `Not recovered yet${typical === null ? '' : `; similar problems in the past took about ${durationInWords(typical)} to fix`}.`;
};

/**
 * What customers saw: the incident's impact summary, blast radius or description, the first written as prose
 * (a description correlation wrote lists signals, with their severities and times, for engineers); or that
 * none is recorded.
 */
export const customerExposure = (evidence: Evidence): string => {
  const { incident } = evidence;
  const told = [incident.impactSummary, incident.blastRadius, incident.description].find(
    (text): text is string => text !== null && isPlainProse(text),
  );
  return told ? `Customers: ${told}` : 'Customers: no customer-facing effect has been recorded so far.';
};

/** The incident as people outside engineering know it: its summary, unless that carries engineering marks. */
export const plainTitle = ({ summary, service }: IncidentContext): string => {
  if (isPlainProse(summary)) return `"${summary}"`;
  return `the problem with ${service ? `the ${service} service` : 'one of our services'}`;
};

/** Impact in words, customer exposure, time to recover and next steps, without engineering terms. */
const leadershipReport = (analysis: Analysis, evidence: Evidence, now: IncidentNow): string => {
  const h = analysis.hypothesisResult;
  const certainty =
    (h?.confidence ?? 0) > 0.8 ? 'We are confident about the cause.' : 'The cause is our best current understanding.';
  const resolvedAt = resolvedSince(evidence, now);
  return [
    `Summary for leadership: ${plainTitle(evidence.incident)}`,
    ...(resolvedAt
      ? [
          `This summary rests on what was known at ${clockInWords(evidence.gatheredAt, evidence.timezone)}, while the problem was still going on; it was resolved at ${clockInWords(resolvedAt, evidence.timezone)}.`,
        ]
      : []),
    '',
    `What happened: ${h?.plainCause ?? 'The cause is not known yet.'} ${certainty}`,
    `Impact: ${analysis.impactResult?.plainImpact ?? 'Not assessed yet.'}`,
    customerExposure(evidence),
    `Time to recover: ${timeToRecover({ ...evidence, incident: { ...evidence.incident, ...now } })}`,
    'Next steps:',
    ...(analysis.remediationResult?.plainNextSteps.map((step, index) => `${index + 1}. ${step}`) ?? []),
  ].join('\n');
};

/** The report of an analysis for its audience, told with the incident as it is now (`now`). */
export const reportContent = (audience: Audience, analysis: Analysis, evidence: Evidence, now: IncidentNow): string =>
  audience === 'ENGINEER' ? engineerReport(analysis, evidence, now) : leadershipReport(analysis, evidence, now);
