import { countOf } from '#lib/contract/count-words.ts';
import { DEFAULT_ENGINE } from './default-hypothesis.ts';
import { CHANGE_WINDOW_MINUTES } from '../evidence/recent-changes-check.ts';
import type { Evidence, EvidenceItem } from '#lib/ports/reasoner/evidence.ts';
import { PRIORITY_WORDS } from '../plain-words.ts';
import { clockInWords, durationInWords, instantsInWords, minutesBetween } from '#lib/contract/time-words.ts';
import { type CauseChain, causeChains, chainBehind, chainItems, rootItemOf } from './cause-chains.ts';
import { chainStory, changeRef } from './chain-words.ts';
import type { Claim, Hypothesis, ImpactAssessment, RemediationPlan } from '#lib/ports/reasoner/reasoner.ts';

const ofKind = (evidence: Evidence, ...kinds: EvidenceItem['kind'][]) =>
  evidence.items.filter((item) => kinds.includes(item.kind));
const ids = (items: EvidenceItem[]) => [...new Set(items.map((item) => item.id))].slice(0, 8);
/** ` (owner: team payments)`: who to call about a service, as the service map names its team. */
const ownerOf = (evidence: Evidence, service: string | null): string => {
  const team = service ? evidence.service?.teams?.[service] : undefined;
  return team ? ` (owner: team ${team})` : ' (no owner team in the service map)';
};

/** Each link of a chain where a failure reached another service: the one that failed first, and the one after. */
const spreadLinks = (chain: CauseChain | null) =>
  (chain?.steps ?? []).flatMap((step, index) => {
    const before = chain?.steps[index - 1];
    return before && step.kind === 'FAILURE' && before.service !== step.service ? [{ from: before, to: step }] : [];
  });

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
  const told = incident.impactSummary ?? incident.blastRadius ?? incident.description;
  const exposure = told && instantsInWords(told, evidence.timezone);
  const high = own.filter((item) => item.details.severity === 'HIGH').length;
  const impact: Claim = {
    text: `${incident.priority} incident affecting ${affected.length > 0 ? affected.join(', ') : 'an unnamed service'}: ${countOf(own.length, 'signal')} on the service (${high} HIGH)${dependents.length > 0 ? ` and ${dependents.length} on services depending on it` : ''}, over ${durationInWords(minutes)}${until(evidence, ' until resolution')}. ${exposure ? `Recorded impact: ${exposure}` : 'No customer impact is recorded on the incident.'}`,
    evidenceIds: ids([...own, ...dependents]),
  };
  const factors: Claim[] = [];
  if (dependents.length > 0) {
    factors.push({
      text: `The failure spread to ${servicesOf(dependents).join(', ')}, which depend on ${incident.service}.`,
      evidenceIds: ids(dependents),
    });
  }
  const chain = chainBehind(evidence, hypothesis.suspect.evidenceId);
  const inChain = new Set([hypothesis.suspect.evidenceId, ...(chain ? chainItems(chain) : []).map((item) => item.id)]);
  const otherChanges = ofKind(evidence, 'DEPLOY', 'PIPELINE_RUN').filter((item) => !inChain.has(item.id));
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
  for (const { from, to } of spreadLinks(chain)) {
    const lag = durationInWords(minutesBetween(from.at, to.at));
    const shown = to.items[0];
    factors.push({
      text:
        from.kind === 'CHANGE'
          ? `${to.service} failed ${lag} after ${from.service}, which it calls, was changed, though ${from.service} raised no alert of its own.`
          : `${to.service} did not withstand the failure of ${from.service}, which it calls: its own alerts followed within ${lag}.`,
      evidenceIds: ids([...(from.kind === 'CHANGE' ? [from.item] : from.items.slice(0, 1)), ...(shown ? [shown] : [])]),
    });
  }
  // The best chain that blames another service: what an engineer should rule out next.
  const rival = chain && causeChains(evidence).find((other) => other.steps[0]?.service !== chain.steps[0]?.service);
  const rivalRoot = rival && rootItemOf(rival);
  if (rival && rivalRoot) {
    factors.push({
      text: `A weaker explanation competes: ${chainStory(rival, evidence.timezone ?? 'UTC')}.`,
      evidenceIds: ids(chainItems(rival)),
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

/**
 * Ordered steps that follow the chain: undo the change or restore the service where it began first (its owner
 * team named), then protect each service the failure reached from the one before it, the symptom's last; then
 * what worked before, and confirming recovery.
 */
export const defaultRemediation = (evidence: Evidence, hypothesis: Hypothesis): RemediationPlan => {
  const { suspect } = hypothesis;
  const lead = evidence.items.find((item) => item.id === suspect.evidenceId);
  const own = ofKind(evidence, 'SIGNAL');
  const symptom = evidence.incident.service ?? 'the affected service';
  const service = suspect.service ?? symptom;
  const chain = chainBehind(evidence, suspect.evidenceId);
  const steps: Claim[] = [];
  const plain: string[] = [];
  if (suspect.kind === 'DEPLOY' && lead) {
    const sha = lead.details.commitSha ? String(lead.details.commitSha).slice(0, 7) : null;
    steps.push({
      text: `Roll ${service} back to the release before ${sha ?? lead.details.changeId ?? lead.id}: revert ${sha ? changeRef(lead) : 'the change'} in ${lead.details.repository} and redeploy to ${lead.details.environment || 'the same environment'}${ownerOf(evidence, service)}.`,
      evidenceIds: [lead.id],
    });
    plain.push(`Undo the recent update to the ${service} service and confirm it works again.`);
  } else if (suspect.kind === 'UPSTREAM' && lead) {
    const incidentOf = evidence.items.find((item) => item.kind === 'UPSTREAM_INCIDENT' && item.service === service);
    steps.push({
      text: `Restore ${service} first${incidentOf ? ` (its own incident ${incidentOf.details.incidentId} is open)` : ''}; ${symptom} recovers with it${ownerOf(evidence, service)}.`,
      evidenceIds: ids([lead, ...(incidentOf ? [incidentOf] : [])]),
    });
    plain.push(`Restore ${service}, the system ${symptom} relies on, then confirm ${symptom} has recovered.`);
  } else if (suspect.kind === 'SERVICE' && lead) {
    steps.push({
      text: `Investigate ${service} around ${lead.at ? clockInWords(lead.at, evidence.timezone) : 'when the incident began'}: its logs, resource use and dependencies when "${lead.details.name}" began; restart or scale it out if it is saturated${ownerOf(evidence, service)}.`,
      evidenceIds: [lead.id],
    });
    plain.push(`Find and fix the fault inside the ${service} service.`);
  }
  for (const { from, to } of spreadLinks(chain)) {
    steps.push({
      text: `Protect ${to.service} from ${from.service} while it recovers: timeouts on its calls to ${from.service}, a circuit breaker that fails fast instead of waiting, bounded retries with backoff${ownerOf(evidence, to.service)}.`,
      evidenceIds: ids([...(from.kind === 'CHANGE' ? [from.item] : from.items.slice(0, 1)), ...to.items.slice(0, 1)]),
    });
    plain.push(`Make ${to.service} hold up when ${from.service} fails, so one failing system cannot take it down.`);
  }
  for (const item of ofKind(evidence, 'SIMILAR_INCIDENT').filter((similar) => similar.details.resolution)) {
    const { incidentId, summary, minutesToResolve, resolution } = item.details;
    steps.push({
      text: `Check whether what resolved the similar incident ${incidentId}${summary ? ` ("${summary}")` : ''}${typeof minutesToResolve === 'number' ? ` in ${durationInWords(minutesToResolve)}` : ''} applies here; its responders wrote: "${resolution}"`,
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
