import type { Evidence, EvidenceItem } from '#lib/ports/reasoner/evidence.ts';
import { CHANGE_WINDOW_MINUTES } from '../evidence/recent-changes-check.ts';
import { sameService } from '../evidence/service-names.ts';

/** A failure of what a service calls explains the service's own failure when it began at most this long before. */
const SPREAD_WINDOW_MINUTES = 60;
/**
 * Alerts of two services that began within this long of each other began together: monitors evaluate on their
 * own intervals, so an upstream's alert may fire a little after its dependent's though it failed first.
 */
const TOGETHER_MINUTES = 1;
/** What a failure with no change and no failing upstream before it is worth: it may have begun there, or not. */
const UNEXPLAINED = 0.5;
/** A change to an upstream that showed no failure of its own explains its dependent's failure half as well. */
const SILENT = 0.5;
/** How much a change says before its timing is weighed: a deploy most, a failed pipeline run (nothing released) least. */
const CHANGE_WEIGHT = { DEPLOY: 0.95, FAILED_DEPLOY: 1, RUN: 0.6, FAILED_RUN: 0.3 };

const MINUTE = 60_000;

/** Where a service began failing, the items that show it, and how sure they make it (1 − Π(1 − strength)). */
interface Failure {
  service: string;
  at: string;
  items: EvidenceItem[];
  certainty: number;
}

/** One link of a chain: a change, or a service's failure, with the score of the link that leads to it. */
export type ChainStep =
  | { kind: 'CHANGE'; service: string; at: string; item: EvidenceItem; score: number }
  | ({ kind: 'FAILURE'; score: number } & Failure);

/**
 * A cause and how it reached the symptom, root first, the symptom's failure last: `change → failure of its
 * service → failure of the service calling it → …`, or a failure nothing before it explains, then the same.
 * `score` is the product of every link's (docs/analysis.md, "Cause chains").
 */
export interface CauseChain {
  steps: ChainStep[];
  score: number;
}

const minutesFrom = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / MINUTE;
/** 1 for a cause the moment before its effect, falling linearly to 0.5 at the window's far end. */
const timing = (lagMinutes: number, windowMinutes: number) =>
  1 - 0.5 * Math.min(1, Math.max(0, lagMinutes) / windowMinutes);
/** What an effect's own evidence adds to a link: half for an effect merely inferred, all for a certain one. */
const observed = (effect: Failure) => 0.5 + 0.5 * effect.certainty;
const certaintyOf = (items: EvidenceItem[]) => 1 - items.reduce((rest, item) => rest * (1 - item.strength), 1);
const byTime = (a: { at: string | null }, b: { at: string | null }) => (a.at ?? '').localeCompare(b.at ?? '');

const changeWeight = (change: EvidenceItem): number => {
  const failed = change.details.status === 'FAILED' || change.details.status === 'failure';
  if (change.kind === 'DEPLOY') return failed ? CHANGE_WEIGHT.FAILED_DEPLOY : CHANGE_WEIGHT.DEPLOY;
  return failed ? CHANGE_WEIGHT.FAILED_RUN : CHANGE_WEIGHT.RUN;
};

/** The score of a change leading to a failure: its weight, how soon the failure followed, how clearly it shows. */
const changeLink = (change: EvidenceItem, effect: Failure, silent: boolean): number =>
  changeWeight(change) *
  timing(minutesFrom(change.at ?? effect.at, effect.at), CHANGE_WINDOW_MINUTES) *
  observed(effect) *
  (silent ? SILENT : 1);

/** The score of an upstream's failure spreading to its dependent: how soon it followed, how clearly it shows. */
const spreadLink = (cause: Failure, effect: Failure): number =>
  timing(minutesFrom(cause.at, effect.at), SPREAD_WINDOW_MINUTES) * observed(effect);

/** Every chain that explains the incident's failure, best first; none when the incident names no service. */
export const causeChains = ({ incident, service, items }: Evidence): CauseChain[] => {
  const symptom = incident.service;
  if (!symptom) return [];
  const isSymptom = (name: string) => sameService(name, symptom);

  const failureOf = (name: string): Failure | null => {
    const shown = items
      .filter((item) => item.kind === 'SIGNAL' || item.kind === 'UPSTREAM_SIGNAL' || item.kind === 'UPSTREAM_INCIDENT')
      .filter(
        (item) =>
          item.at && (sameService(item.service, name) || (isSymptom(name) && item.kind === 'SIGNAL' && !item.service)),
      )
      .sort(byTime);
    const first = shown[0]?.at;
    if (!isSymptom(name))
      return first ? { service: name, at: first, items: shown, certainty: certaintyOf(shown) } : null;
    // The incident itself reports its service failing: at its start, half sure, when no signal shows it.
    const at = first && first < incident.startedAt ? first : incident.startedAt;
    return { service: name, at, items: shown, certainty: Math.max(0.5, certaintyOf(shown)) };
  };
  const changesBefore = (name: string, at: string) =>
    items.filter((item) => {
      if ((item.kind !== 'DEPLOY' && item.kind !== 'PIPELINE_RUN') || !item.at || !sameService(item.service, name))
        return false;
      const lag = minutesFrom(item.at, at);
      return lag >= 0 && lag <= CHANGE_WINDOW_MINUTES;
    });
  // Evidence gathered before the map's edges were kept: every upstream is taken as called by the service itself.
  const upstreamsOf = (name: string): string[] =>
    service?.dependencies
      ? service.dependencies.filter((edge) => sameService(edge.service, name)).map((edge) => edge.upstream)
      : isSymptom(name)
        ? (service?.upstreams ?? [])
        : [];
  const changeStep = (item: EvidenceItem): ChainStep => ({
    kind: 'CHANGE',
    service: item.service ?? symptom,
    at: item.at ?? incident.startedAt,
    item,
    score: 1,
  });

  /** The chains that end in `failure`, each root first: the changes before it, its failing upstreams, or nothing. */
  const explain = (failure: Failure, walked: string[]): ChainStep[][] => {
    const ending = (score: number): ChainStep => ({ kind: 'FAILURE', ...failure, score });
    const own = changesBefore(failure.service, failure.at).map((change) => [
      changeStep(change),
      ending(changeLink(change, failure, false)),
    ]);
    const through = upstreamsOf(failure.service)
      .filter((upstream) => !walked.some((name) => sameService(name, upstream)))
      .flatMap((upstream) => {
        const theirs = failureOf(upstream);
        const lag = theirs ? minutesFrom(theirs.at, failure.at) : -1;
        if (theirs && lag >= -TOGETHER_MINUTES && lag <= SPREAD_WINDOW_MINUTES) {
          return explain(theirs, [...walked, upstream]).map((chain) => [...chain, ending(spreadLink(theirs, failure))]);
        }
        // An upstream that did not fail first may still have been changed just before: a hop nobody saw fail.
        return changesBefore(upstream, failure.at).map((change) => [
          changeStep(change),
          ending(changeLink(change, failure, true)),
        ]);
      });
    const deeper = [...own, ...through];
    return deeper.length > 0 ? deeper : [[ending(UNEXPLAINED * failure.certainty)]];
  };

  const symptomFailure = failureOf(symptom);
  if (!symptomFailure) return [];
  return explain(symptomFailure, [symptom])
    .map((steps) => ({ steps, score: steps.reduce((product, step) => product * step.score, 1) }))
    .sort((a, b) => b.score - a.score);
};

/** The item a chain's root cause rests on: the change, or the first item showing the failure it began with. */
export const rootItemOf = ({ steps }: CauseChain): EvidenceItem | null => {
  const [root] = steps;
  if (!root) return null;
  return root.kind === 'CHANGE' ? root.item : (root.items[0] ?? null);
};

/** Every item a chain rests on, root first. */
export const chainItems = ({ steps }: CauseChain): EvidenceItem[] =>
  steps.flatMap((step) => (step.kind === 'CHANGE' ? [step.item] : step.items));

/** The chain behind a hypothesis' suspect (the one whose root is the item it names), or null: a model may name another. */
export const chainBehind = (evidence: Evidence, evidenceId: string | null): CauseChain | null =>
  (evidenceId && causeChains(evidence).find((chain) => rootItemOf(chain)?.id === evidenceId)) || null;
