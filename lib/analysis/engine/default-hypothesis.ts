import type { Evidence, EvidenceItem } from '#lib/ports/reasoner/evidence.ts';
import type { EngineNote, Hypothesis, SuspectKind } from '#lib/ports/reasoner/reasoner.ts';
import { type CauseChain, causeChains, chainItems, rootItemOf } from './cause-chains.ts';
import { hypothesisTexts } from './hypothesis-texts.ts';
import { sameService as same } from '../evidence/service-names.ts';

export const DEFAULT_ENGINE: EngineNote = { name: 'default', modelId: null, fallbackReason: null };

/** Weights of evidence that corroborates a chain rather than forms it (docs/analysis.md, "Cause chains"). */
const FOLLOWED_CAUSE = 0.8;
const MAX_CITED = 8;

const ROLLBACK_WORDS = /\b(roll(ed)?[ -]?back|revert(ed)?|redeploy(ed)?|previous (version|release))\b/i;

/** A chain scored with what corroborates it: what the root cause is, and every item the explanation rests on. */
interface Explanation {
  chain: CauseChain;
  kind: Exclude<SuspectKind, 'UNKNOWN'>;
  /** The service at fault: the changed one, or the one whose failure began it. */
  service: string;
  lead: EvidenceItem;
  corroboration: { item: EvidenceItem; weight: number }[];
  support: number;
}

/** 1 − Π(1 − weight·strength): independent items each make the explanation more likely, none past 1. */
const supportOf = (chainScore: number, corroboration: Explanation['corroboration']): number =>
  1 - corroboration.reduce((rest, { item, weight }) => rest * (1 - weight * item.strength), 1 - chainScore);

const explanationsOf = (evidence: Evidence): Explanation[] => {
  const { items, incident } = evidence;
  const patternsOf = (kind: string, service: string) =>
    items.filter((item) => item.kind === 'PATTERN' && item.details.suspectKind === kind && same(item.service, service));
  return causeChains(evidence).flatMap((chain): Explanation[] => {
    const [root] = chain.steps;
    const lead = rootItemOf(chain);
    if (!root || !lead) return [];
    const kind = root.kind === 'CHANGE' ? 'DEPLOY' : same(root.service, incident.service) ? 'SERVICE' : 'UPSTREAM';
    const inChain = new Set(chainItems(chain).map((item) => item.id));
    const similar = items.filter((item) => item.kind === 'SIMILAR_INCIDENT');
    const corroboration = [
      ...items
        .filter((item) => item.kind === 'DEPENDENT_SIGNAL' && !inChain.has(item.id) && item.at && item.at >= root.at)
        .map((item) => ({ item, weight: FOLLOWED_CAUSE })),
      ...(kind === 'DEPLOY'
        ? similar.filter((item) => ROLLBACK_WORDS.test(String(item.details.resolution ?? '')))
        : kind === 'SERVICE'
          ? similar
          : []
      ).map((item) => ({ item, weight: 1 })),
      ...patternsOf(kind, root.service).map((item) => ({ item, weight: 1 })),
    ];
    return [
      { chain, kind, service: root.service, lead, corroboration, support: supportOf(chain.score, corroboration) },
    ];
  });
};

/**
 * min(cap, 0.1 + 0.85 · support · (1 − competition / 2)): support of the chosen explanation, lowered by
 * the best explanation blaming another service; the cap is 0.95 when two kinds of evidence agree, 0.75
 * when one kind stands alone, so a confidence above 0.8 needs strong and consistent evidence.
 */
const confidenceOf = (support: number, competition: number, kinds: number): number => {
  const cap = kinds >= 2 ? 0.95 : 0.75;
  return Math.round(Math.min(cap, 0.1 + 0.85 * support * (1 - competition / 2)) * 100) / 100;
};

const cite = (items: EvidenceItem[]) => [...new Set(items.map((item) => item.id))].slice(0, MAX_CITED);

/** The best-supported explanation of the incident, or an honest "unknown" when nothing points anywhere. */
export const defaultHypothesis = (evidence: Evidence): Hypothesis => {
  const { incident } = evidence;
  const timeZone = evidence.timezone ?? 'UTC';
  const explanations = explanationsOf(evidence).sort((a, b) => b.support - a.support);
  const best = explanations[0];
  if (!best) {
    return {
      hypothesis: {
        text: `Unknown: no deploy, upstream failure, signal or earlier incident in the evidence explains "${incident.summary}".`,
        evidenceIds: [],
      },
      rootCause: { text: 'Unknown: the evidence gathered does not point to a cause.', evidenceIds: [] },
      plainCause: 'The cause is not known yet; the team is still looking into it.',
      suspect: { kind: 'UNKNOWN', service: null, evidenceId: null },
      confidence: 0.1,
      engine: DEFAULT_ENGINE,
    };
  }
  // A rival explains the incident by another service; a shallower reading of the same chain is no rival.
  const competition = explanations.find((other) => !same(other.service, best.service))?.support ?? 0;
  const supporting = [...chainItems(best.chain), ...best.corroboration.map(({ item }) => item)];
  const kinds = new Set(supporting.map((item) => item.kind)).size;
  const followers = new Set(
    supporting.filter((item) => item.id !== best.lead.id && item.kind.endsWith('SIGNAL')).map((item) => item.id),
  ).size;
  const texts = hypothesisTexts({ ...best, followers }, evidence, timeZone);
  return {
    hypothesis: { text: texts.hypothesis, evidenceIds: cite(supporting) },
    rootCause: { text: texts.rootCause, evidenceIds: [best.lead.id] },
    plainCause: texts.plainCause,
    suspect: { kind: best.kind, service: best.service, evidenceId: best.lead.id },
    confidence: confidenceOf(best.support, competition, kinds),
    engine: DEFAULT_ENGINE,
  };
};
