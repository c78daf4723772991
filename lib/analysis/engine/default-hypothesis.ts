import type { Evidence, EvidenceItem } from '#lib/ports/reasoner/evidence.ts';
import type { EngineNote, Hypothesis, SuspectKind } from '#lib/ports/reasoner/reasoner.ts';
import { SHORTLY_BEFORE_MINUTES } from '../evidence/recent-changes-check.ts';
import { clockInWords, durationInWords, minutesBetween } from './plain-words.ts';

export const DEFAULT_ENGINE: EngineNote = { name: 'default', modelId: null, fallbackReason: null };

/** One explanation of the incident and the evidence for it, each item with the weight it carries here. */
interface Candidate {
  kind: Exclude<SuspectKind, 'UNKNOWN'>;
  service: string;
  lead: EvidenceItem;
  support: { item: EvidenceItem; weight: number }[];
}

/** Weights of evidence that corroborates rather than names a cause (docs/analysis.md, "Confidence"). */
const FOLLOWED_CHANGE = 0.8;
const FOLLOWED_UPSTREAM = 0.5;
const SYMPTOM = 0.5;
const MAX_CITED = 8;

const same = (a: string | null, b: string | null) => !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();
const after = (item: EvidenceItem, at: string | null) => !!item.at && !!at && item.at >= at;
const earliest = (items: EvidenceItem[]) => [...items].sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''))[0];
const ROLLBACK_WORDS = /\b(roll(ed)?[ -]?back|revert(ed)?|redeploy(ed)?|previous (version|release))\b/i;

/** 1 − Π(1 − weight·strength): independent items each make the explanation more likely, none past 1. */
export const supportOf = (candidate: Pick<Candidate, 'support'>): number =>
  1 - candidate.support.reduce((rest, { item, weight }) => rest * (1 - weight * item.strength), 1);

const candidatesOf = ({ items, incident }: Evidence): Candidate[] => {
  const own = items.filter((item) => item.kind === 'SIGNAL');
  const dependents = items.filter((item) => item.kind === 'DEPENDENT_SIGNAL');
  const similar = items.filter((item) => item.kind === 'SIMILAR_INCIDENT');
  const patternsOf = (kind: string, service: string) =>
    items.filter((item) => item.kind === 'PATTERN' && item.details.suspectKind === kind && same(item.service, service));
  const changes = items.filter((item) => item.kind === 'DEPLOY' || item.kind === 'PIPELINE_RUN');
  const deploys = changes.flatMap((change): Candidate[] => {
    if (!change.service) return [];
    return [
      {
        kind: 'DEPLOY',
        service: change.service,
        lead: change,
        support: [
          { item: change, weight: 1 },
          ...[...own, ...dependents]
            .filter((signal) => after(signal, change.at))
            .map((item) => ({ item, weight: FOLLOWED_CHANGE })),
          ...similar
            .filter((item) => ROLLBACK_WORDS.test(String(item.details.resolution ?? '')))
            .map((item) => ({ item, weight: 1 })),
          ...patternsOf('DEPLOY', change.service).map((item) => ({ item, weight: 1 })),
        ],
      },
    ];
  });
  const upstreamItems = items.filter((item) => item.kind === 'UPSTREAM_SIGNAL' || item.kind === 'UPSTREAM_INCIDENT');
  const upstreamServices = [...new Set(upstreamItems.flatMap((item) => (item.service ? [item.service] : [])))];
  const upstreams = upstreamServices.flatMap((service): Candidate[] => {
    const theirs = upstreamItems.filter((item) => same(item.service, service));
    const lead = earliest(theirs);
    if (!lead) return [];
    return [
      {
        kind: 'UPSTREAM',
        service,
        lead,
        support: [
          ...theirs.map((item) => ({ item, weight: 1 })),
          ...own.filter((signal) => after(signal, lead.at)).map((item) => ({ item, weight: FOLLOWED_UPSTREAM })),
          ...patternsOf('UPSTREAM', service).map((item) => ({ item, weight: 1 })),
        ],
      },
    ];
  });
  if (deploys.length + upstreams.length > 0) return [...deploys, ...upstreams];
  const firstOwn = earliest(own);
  if (!firstOwn || !incident.service) return [];
  return [
    {
      kind: 'SERVICE',
      service: incident.service,
      lead: firstOwn,
      support: [
        ...own.map((item) => ({ item, weight: SYMPTOM })),
        ...similar.map((item) => ({ item, weight: 1 })),
        ...patternsOf('SERVICE', incident.service).map((item) => ({ item, weight: 1 })),
      ],
    },
  ];
};

/**
 * min(cap, 0.1 + 0.85 · support · (1 − competition / 2)): support of the chosen explanation, lowered by
 * the best explanation blaming another service; the cap is 0.95 when two kinds of evidence agree, 0.75
 * when one kind stands alone, so a confidence above 0.8 needs strong and consistent evidence.
 */
export const confidenceOf = (support: number, competition: number, kinds: number): number => {
  const cap = kinds >= 2 ? 0.95 : 0.75;
  return Math.round(Math.min(cap, 0.1 + 0.85 * support * (1 - competition / 2)) * 100) / 100;
};

const cite = (items: EvidenceItem[]) => [...new Set(items.map((item) => item.id))].slice(0, MAX_CITED);

/** The best-supported explanation of the incident, or an honest "unknown" when nothing points anywhere. */
export const defaultHypothesis = (evidence: Evidence): Hypothesis => {
  const { incident } = evidence;
  const scored = candidatesOf(evidence)
    .map((candidate) => ({ candidate, support: supportOf(candidate) }))
    .sort((a, b) => b.support - a.support);
  const best = scored[0];
  const where = incident.service ?? 'the affected service';
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
  const { candidate, support } = best;
  const competition = scored.find(({ candidate: other }) => !same(other.service, candidate.service))?.support ?? 0;
  const kinds = new Set(candidate.support.map(({ item }) => item.kind)).size;
  const supportIds = cite(candidate.support.map(({ item }) => item));
  const { lead } = candidate;
  const followers = new Set(
    candidate.support.filter(({ item }) => item !== lead && item.kind.endsWith('SIGNAL')).map(({ item }) => item.id),
  );
  const lagMinutes = lead.at ? minutesBetween(lead.at, incident.startedAt) : null;
  const lag = lagMinutes === null ? 'shortly' : durationInWords(lagMinutes);
  const released =
    lagMinutes === null || lagMinutes <= SHORTLY_BEFORE_MINUTES ? 'shortly' : `about ${durationInWords(lagMinutes)}`;
  const texts = {
    DEPLOY: {
      hypothesis: `${lead.summary} went out ${lag} before the incident began and introduced a fault in ${candidate.service}; ${followers.size} alert(s) on ${candidate.service} and the services depending on it followed.`,
      rootCause: `The change deployed to ${candidate.service}: ${lead.summary}.`,
      plainCause: `A software update released to the ${candidate.service} service ${released} before the problem began is the most likely cause.`,
    },
    UPSTREAM: {
      hypothesis: `${candidate.service}, which ${where} depends on, was in trouble first (${lead.summary}); the failure spread to ${where}, whose own alerts came after.`,
      rootCause: `A failure of ${candidate.service}, upstream of ${where}: ${lead.summary}.`,
      plainCause: `A problem in ${candidate.service}, a system that ${where} relies on, started first and caused the disruption.`,
    },
    SERVICE: {
      hypothesis: `A fault inside ${candidate.service} itself: its alerts began ${lead.at ? `at ${clockInWords(lead.at, evidence.timezone)}` : 'first'}, and no recent change or upstream failure was found.`,
      rootCause: `A fault within ${candidate.service}; what in it failed is not in the evidence.`,
      plainCause: `Something went wrong inside the ${candidate.service} service itself; the exact fault is still being confirmed.`,
    },
  }[candidate.kind];
  return {
    hypothesis: { text: texts.hypothesis, evidenceIds: supportIds },
    rootCause: { text: texts.rootCause, evidenceIds: [lead.id] },
    plainCause: texts.plainCause,
    suspect: { kind: candidate.kind, service: candidate.service, evidenceId: lead.id },
    confidence: confidenceOf(support, competition, kinds),
    engine: DEFAULT_ENGINE,
  };
};
