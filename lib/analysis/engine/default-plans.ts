import { DEFAULT_ENGINE } from './default-hypothesis.ts';
import { CHANGE_WINDOW_MINUTES } from '../evidence/recent-changes-check.ts';
import type { Evidence, EvidenceItem } from '#lib/ports/reasoner/evidence.ts';
import { PRIORITY_WORDS, clockInWords, durationInWords, minutesBetween } from './plain-words.ts';
import type { Claim, Hypothesis, ImpactAssessment, RemediationPlan } from '#lib/ports/reasoner/reasoner.ts';

const ofKind = (evidence: Evidence, ...kinds: EvidenceItem['kind'][]) =>
  evidence.items.filter((item) => kinds.includes(item.kind));
const ids = (items: EvidenceItem[]) => [...new Set(items.map((item) => item.id))].slice(0, 8);
const servicesOf = (items: EvidenceItem[]) => [
  ...new Set(items.flatMap((item) => (item.service ? [item.service] : []))),
];

/** How long the impact lasted: to the resolution, or until the evidence was gathered. */
const impactMinutes = ({ incident, gatheredAt }: Evidence) =>
  minutesBetween(incident.startedAt, incident.resolvedAt ?? gatheredAt);

/**
 * How far a duration reaches: to the resolution, or to the time of the analysis, said as that time ("as of …")
 * rather than "so far", so the text stays true once the incident is over.
 */
const until = ({ incident, gatheredAt, timezone }: Evidence, resolved: string) =>
  incident.resolvedAt ? resolved : ` as of ${clockInWords(gatheredAt, timezone)}`;

/** Who and what the incident touched, from its signals, its dependents' signals and its own fields. */
export const defaultImpact = (evidence: Evidence, hypothesis: Hypothesis): ImpactAssessment => {
  const { incident } = evidence;
  const own = ofKind(evidence, 'SIGNAL');
  const dependents = ofKind(evidence, 'DEPENDENT_SIGNAL');
  const affected = [...new Set([...(incident.service ? [incident.service] : []), ...servicesOf(dependents)])];
  const minutes = impactMinutes(evidence);
  const exposure = incident.impactSummary ?? incident.blastRadius ?? incident.description;
  const high = own.filter((item) => item.details.severity === 'HIGH').length;
  const impact: Claim = {
    text: `${incident.priority} incident affecting ${affected.length > 0 ? affected.join(', ') : 'an unnamed service'}: ${own.length} signal(s) on the service (${high} HIGH)${dependents.length > 0 ? ` and ${dependents.length} on services depending on it` : ''}, over ${durationInWords(minutes)}${until(evidence, ' until resolution')}. ${exposure ? `Recorded impact: ${exposure}` : 'No customer impact is recorded on the incident.'}`,
    evidenceIds: ids([...own, ...dependents]),
  };
  const factors: Claim[] = [];
  if (dependents.length > 0) {
    factors.push({
      text: `The failure spread to ${servicesOf(dependents).join(', ')}, which depend on ${incident.service}.`,
      evidenceIds: ids(dependents),
    });
  }
  const otherChanges = ofKind(evidence, 'DEPLOY', 'PIPELINE_RUN').filter(
    (item) => item.id !== hypothesis.suspect.evidenceId,
  );
  const failedRuns = otherChanges.filter((item) => item.details.status === 'failure');
  if (failedRuns.length > 0) {
    factors.push({
      text: `Pipeline runs failed in the ${durationInWords(CHANGE_WINDOW_MINUTES)} before it began: ${failedRuns.map((item) => item.summary).join('; ')}.`,
      evidenceIds: ids(failedRuns),
    });
  }
  const otherDeploys = otherChanges.filter((item) => item.kind === 'DEPLOY');
  if (otherDeploys.length > 0) {
    factors.push({
      text: `Other changes in the same window: ${otherDeploys.map((item) => item.summary).join('; ')}.`,
      evidenceIds: ids(otherDeploys),
    });
  }
  const upstreamLead = evidence.items.find((item) => item.id === hypothesis.suspect.evidenceId);
  if (hypothesis.suspect.kind === 'UPSTREAM' && upstreamLead && own[0]) {
    factors.push({
      text: `${incident.service} did not withstand the failure of ${hypothesis.suspect.service}: its own alerts followed within ${durationInWords(minutesBetween(upstreamLead.at ?? own[0].at ?? '', own[0].at ?? ''))}.`,
      evidenceIds: [upstreamLead.id, own[0].id],
    });
  }
  const similar = ofKind(evidence, 'SIMILAR_INCIDENT');
  if (similar.length > 0) {
    factors.push({
      text: `It has happened before: ${similar.map((item) => item.details.incidentId).join(', ')}.`,
      evidenceIds: ids(similar),
    });
  }
  const patterns = ofKind(evidence, 'PATTERN');
  if (patterns.length > 0) {
    factors.push({
      text: `A known pattern: ${patterns.map((item) => item.summary).join('; ')}.`,
      evidenceIds: ids(patterns),
    });
  }
  if (factors.length === 0)
    factors.push({ text: 'No contributing factor was found in the evidence.', evidenceIds: [] });
  const { what: severity, meaning } = PRIORITY_WORDS[incident.priority] ?? { what: 'a disruption' };
  const others = affected.length - 1;
  return {
    impactAssessment: impact,
    contributingFactors: factors,
    plainImpact: `${severity[0]?.toUpperCase()}${severity.slice(1)} of ${incident.service ? `the ${incident.service} service` : 'one of our services'}${others > 0 ? ` and ${others} other service${others === 1 ? '' : 's'} that rely on it` : ''}, lasting ${durationInWords(minutes)}${until(evidence, ' in all')}${meaning ? `, ${meaning}` : ''}.`,
    engine: DEFAULT_ENGINE,
  };
};

/** Ordered steps: undo or restore the cause first, then confirm recovery, then what worked before. */
export const defaultRemediation = (evidence: Evidence, hypothesis: Hypothesis): RemediationPlan => {
  const { suspect } = hypothesis;
  const lead = evidence.items.find((item) => item.id === suspect.evidenceId);
  const own = ofKind(evidence, 'SIGNAL');
  const service = suspect.service ?? evidence.incident.service ?? 'the affected service';
  const steps: Claim[] = [];
  const plain: string[] = [];
  if (suspect.kind === 'DEPLOY' && lead) {
    const sha = lead.details.commitSha ? String(lead.details.commitSha) : null;
    steps.push({
      text: `Roll ${service} back to the release before ${sha ? sha.slice(0, 7) : lead.id}: revert ${sha ? `commit ${sha.slice(0, 7)}` : 'the change'} in ${lead.details.repository} and redeploy to ${lead.details.environment ?? 'the same environment'}.`,
      evidenceIds: [lead.id],
    });
    plain.push(`Undo the recent update to the ${service} service and confirm it works again.`);
  } else if (suspect.kind === 'UPSTREAM' && lead) {
    const incidentOf = evidence.items.find((item) => item.kind === 'UPSTREAM_INCIDENT' && item.service === service);
    steps.push({
      text: `Restore ${service} first${incidentOf ? ` (its own incident ${incidentOf.details.incidentId} is open)` : ''}; ${evidence.incident.service} recovers with it.`,
      evidenceIds: ids([lead, ...(incidentOf ? [incidentOf] : [])]),
    });
    steps.push({
      text: `Shield ${evidence.incident.service} from ${service} while it recovers: fail over, shed load, or fail fast (circuit breaker, bounded retries with backoff).`,
      evidenceIds: [lead.id],
    });
    plain.push(
      `Restore ${service}, the system ${evidence.incident.service} relies on, then confirm ${evidence.incident.service} has recovered.`,
    );
  } else if (suspect.kind === 'SERVICE' && lead) {
    steps.push({
      text: `Investigate ${service} around ${lead.at}: its logs, resource use and dependencies when "${lead.details.name}" began; restart or scale it out if it is saturated.`,
      evidenceIds: [lead.id],
    });
    plain.push(`Find and fix the fault inside the ${service} service.`);
  }
  for (const item of ofKind(evidence, 'SIMILAR_INCIDENT').filter((similar) => similar.details.resolution)) {
    steps.push({
      text: `Apply what resolved ${item.details.incidentId}: ${item.details.resolution}`,
      evidenceIds: [item.id],
    });
  }
  for (const item of ofKind(evidence, 'PATTERN').filter((pattern) => Number(pattern.details.resolved) > 0)) {
    steps.push({
      text: `Apply the fix that worked for this pattern before: ${item.details.suggestedFix}`,
      evidenceIds: [item.id],
    });
  }
  if (own.length > 0) {
    steps.push({
      text: `Confirm recovery: ${[...new Set(own.map((item) => `"${item.details.name}"`))].slice(0, 3).join(', ')} resolve and stay quiet.`,
      evidenceIds: ids(own),
    });
    plain.push('Confirm that the service is healthy again and stays that way.');
  }
  if (suspect.kind === 'DEPLOY' && lead) {
    steps.push({
      text: `Before redeploying the change, add a check to the ${lead.details.repository} pipeline that would have caught it.`,
      evidenceIds: [lead.id],
    });
    plain.push('Improve how updates are checked before release, so this cannot happen again the same way.');
  }
  if (steps.length === 0) {
    steps.push({
      text: 'Unknown: the evidence suggests no remediation; gather more (signals, recent changes) and analyse again.',
      evidenceIds: [],
    });
    plain.push('Keep investigating; we will share next steps as soon as the cause is known.');
  }
  return { remediationOptions: steps, plainNextSteps: plain, engine: DEFAULT_ENGINE };
};
