import { findIncident } from '#lib/incidents/get-incident.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { normalizeAction } from './execution.ts';
import type { PublishedSummary, TriggerConditions } from './playbook.ts';
import { playbookRepository } from './playbook-repository.ts';
import type { MatchInput } from './schemas.ts';

/**
 * The match formula (docs/playbooks.md, "Matching"): score = the sum over the four conditions of
 * weight x fit, so 1 is a playbook whose every condition fits. A condition the playbook sets fits 1 or 0
 * (keywords: the share of its keywords found); one it leaves out fits `UNSET`, neither for nor against;
 * one the incident has no value for fits 0. Only a score above `MATCH_FLOOR` is a match, so a playbook
 * without conditions, or whose fits do not outweigh its misses, is never offered.
 */
export const MATCH_WEIGHTS: Record<keyof TriggerConditions, number> = {
  serviceArea: 0.35,
  priority: 0.25,
  environment: 0.2,
  keywords: 0.2,
};
export const UNSET = 0.5;
export const MATCH_FLOOR = 0.5;

/** What is matched against: the body's fields, filled from the incident where the body leaves one out. */
interface Subject {
  serviceArea?: string;
  priority?: string;
  environment?: string;
  text: string;
}

const same = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

const oneOf = (values: readonly string[], value: string | undefined): number =>
  value !== undefined && values.some((candidate) => same(candidate, value)) ? 1 : 0;

/** Whole words or phrases, without case or punctuation: "db" is not found in "dbms". */
const keywordShare = (keywords: readonly string[], text: string): number => {
  const padded = ` ${normalizeAction(text)} `;
  return keywords.filter((keyword) => padded.includes(` ${normalizeAction(keyword)} `)).length / keywords.length;
};

const fitOf = (conditions: TriggerConditions, subject: Subject, condition: keyof TriggerConditions): number => {
  const values = conditions[condition];
  if (values.length === 0) return UNSET;
  if (condition === 'keywords') return keywordShare(values, subject.text);
  return oneOf(values, subject[condition]);
};

/** Rounded to three decimals, so sums of weights compare exactly with the floor. */
export const matchScore = (conditions: TriggerConditions, subject: Subject): number => {
  const score = (Object.keys(MATCH_WEIGHTS) as (keyof TriggerConditions)[]).reduce(
    (sum, condition) => sum + MATCH_WEIGHTS[condition] * fitOf(conditions, subject, condition),
    0,
  );
  return Math.round(score * 1000) / 1000;
};

const conditionsSet = (conditions: TriggerConditions): number =>
  Object.values(conditions).filter((values) => values.length > 0).length;

const subjectOf = async (scope: Scope, input: MatchInput): Promise<Subject> => {
  const incident = input.incidentId ? await findIncident(scope, input.incidentId, 'incidentId') : undefined;
  const summary = input.summary ?? incident?.summary ?? '';
  const description = input.description ?? incident?.description ?? '';
  return {
    serviceArea: input.serviceArea ?? incident?.serviceArea,
    priority: input.priority ?? incident?.priority,
    environment: input.environment ?? incident?.environment,
    text: `${summary} ${description}`,
  };
};

export interface PlaybookMatch {
  playbookId: string;
  title: string;
  matchScore: number;
}

/**
 * The best published playbook, scored on its published version's conditions (one Query of the
 * published heads); ties go to the one with more conditions set, then the newest. Null when none
 * scores above the floor.
 */
export const matchPlaybook = async (scope: Scope, input: MatchInput): Promise<PlaybookMatch | null> => {
  const [subject, published] = await Promise.all([
    subjectOf(scope, input),
    playbookRepository(scope.ports.table, scope.workspaceId).queryPublished(),
  ]);
  const scored = published
    .map((playbook: PublishedSummary) => ({ playbook, score: matchScore(playbook.triggerConditions, subject) }))
    .filter(({ score }) => score > MATCH_FLOOR)
    .sort(
      (a, b) =>
        b.score - a.score ||
        conditionsSet(b.playbook.triggerConditions) - conditionsSet(a.playbook.triggerConditions) ||
        b.playbook.id.localeCompare(a.playbook.id),
    );
  const best = scored[0];
  if (!best) return null;
  return {
    playbookId: best.playbook.id,
    title: best.playbook.title,
    matchScore: best.score,
  };
};
