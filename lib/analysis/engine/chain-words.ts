import type { EvidenceItem } from '#lib/ports/reasoner/evidence.ts';
import type { CauseChain, ChainStep } from './cause-chains.ts';
import { clockInWords, durationInWords, minutesBetween, timeOfDayInWords } from '#lib/contract/time-words.ts';

/** What a change did to its service, in a verb: a configuration change reconfigured it, anything else deployed it. */
const changeVerb = (item: EvidenceItem): string => {
  if (/\bconfig(uration)?\b/i.test(item.summary)) return 'reconfigured';
  return item.kind === 'PIPELINE_RUN' ? 'released by a pipeline run' : 'deployed';
};

/** ` by Codertocat`, or that nobody is named, for a root cause that must say who made the change. */
export const deployerOf = (item: EvidenceItem): string =>
  item.details.deployer ? ` by ${item.details.deployer}` : ' (who made it is not recorded)';

/** `commit f95f852`, else the deployment's or run's own id: what to look up and roll back. */
export const changeRef = (item: EvidenceItem, full = false): string => {
  const sha = item.details.commitSha ? String(item.details.commitSha) : null;
  if (sha) return `commit ${full ? sha : sha.slice(0, 7)}`;
  return `${item.kind === 'PIPELINE_RUN' ? 'run' : 'deployment'} ${item.details.changeId ?? item.details.runId ?? item.id}`;
};

/** How a failure shows in the evidence: its first alert by name, an open incident, or the incident itself. */
const shownBy = (step: Extract<ChainStep, { kind: 'FAILURE' }>): string => {
  const first = step.items[0];
  if (!first) return 'when the incident began';
  if (first.kind === 'UPSTREAM_INCIDENT') return `its incident ${first.details.incidentId} opened`;
  return `"${first.details.name}"`;
};

/**
 * The chain told in order, each link with its time in the workspace's zone: "payments-api was deployed at 14:02
 * on 28 November 2026 (UTC) by Codertocat (commit f95f852); payments-api began failing 2 minutes later, at 14:04
 * ("latency high"); checkout, which calls payments-api, began failing 2 minutes later, at 14:06 ("errors")".
 * The day is said at the first time and again only when it changes.
 */
export const chainStory = ({ steps }: CauseChain, timeZone: string): string => {
  let lastDay = '';
  const when = (at: string) => {
    const day = clockInWords(at, timeZone).slice(6);
    if (day === lastDay) return timeOfDayInWords(at, timeZone);
    lastDay = day;
    return clockInWords(at, timeZone);
  };
  return steps
    .map((step, index) => {
      const before = steps[index - 1];
      if (step.kind === 'CHANGE') {
        return `${step.service} was ${changeVerb(step.item)} at ${when(step.at)}${deployerOf(step.item)} (${changeRef(step.item)})`;
      }
      const caller = before && before.service !== step.service ? `, which calls ${before.service},` : '';
      const lag = before ? `${durationInWords(minutesBetween(before.at, step.at))} later, ` : '';
      return `${step.service}${caller} began failing ${lag}at ${when(step.at)} (${shownBy(step)})`;
    })
    .join('; ');
};

/** The services a chain's failure travelled through after its root, in order: `payments-api, then checkout`. */
export const mechanismOf = ({ steps }: CauseChain): string[] =>
  steps.flatMap((step, index) => (step.kind === 'FAILURE' && index > 0 ? [step.service] : []));
