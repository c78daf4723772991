import { ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { silentHoursRepository } from './silent-hours-repository.ts';
import { isRuleId, silentAt, type SilentHoursRule } from './silent-hours.ts';
import type { ReplaceRulesInput, RuleInput } from './schemas.ts';

/** A first try and three retries on a `rev` conflict (docs/data-model.md 2), then 409. */
const ATTEMPTS = 4;

const notFound = (ruleId: string): NotFoundError =>
  new NotFoundError('Silent-hours rule not found', [`id: no rule ${ruleId} in this workspace`]);

/**
 * Read-modify-write of the whole set: `change` gets the rules as read and answers the new ones (and what
 * the request returns); the write holds only if the set is still at the `rev` read, else it is read and
 * changed again. So a replace and a one-rule change running at once never mix: one of them applies to
 * the other's result, or answers 409 after its retries.
 */
const changeSet = async <T>(
  { ports: { table, clock }, workspaceId }: Scope,
  change: (rules: SilentHoursRule[]) => { rules: SilentHoursRule[]; result: T },
): Promise<T> => {
  const repository = silentHoursRepository(table, workspaceId);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const { rules, rev } = await repository.readSet();
    const next = change(rules);
    if (await repository.writeSet(next.rules, rev, clock.now().toISOString())) return next.result;
  }
  throw new ConflictError('The silent-hours rules changed during the request; try again');
};

export const listRules = async ({ ports: { table }, workspaceId }: Scope): Promise<SilentHoursRule[]> =>
  (await silentHoursRepository(table, workspaceId).readSet()).rules;

/** Replaces the whole set: every rule gets a new server id, and rules left out are gone. */
export const replaceRules = async (scope: Scope, { rules }: ReplaceRulesInput): Promise<SilentHoursRule[]> => {
  const replaced = rules.map((rule): SilentHoursRule => ({ id: scope.ports.ids.sortable(), ...rule }));
  return changeSet(scope, () => ({ rules: replaced, result: replaced }));
};

/** Replaces one rule's fields, keeping its id and its place in the set. */
export const replaceRule = async (
  scope: Scope,
  { id, rule }: { id: string; rule: RuleInput },
): Promise<SilentHoursRule> => {
  if (!isRuleId(id)) throw notFound(id);
  const replaced: SilentHoursRule = { id, ...rule };
  return changeSet(scope, (rules) => {
    if (!rules.some((existing) => existing.id === id)) throw notFound(id);
    return { rules: rules.map((existing) => (existing.id === id ? replaced : existing)), result: replaced };
  });
};

export const deleteRule = async (scope: Scope, id: string): Promise<void> => {
  if (!isRuleId(id)) throw notFound(id);
  await changeSet(scope, (rules) => {
    if (!rules.some((existing) => existing.id === id)) throw notFound(id);
    return { rules: rules.filter((existing) => existing.id !== id), result: undefined };
  });
};

/**
 * Whether the workspace's silent hours mute `team` at `instant`: what notifications ask before they page
 * or post. Incidents are opened all the same (correlation never asks). One GetItem.
 */
export const isTeamSilentAt = async (scope: Scope, team: string, instant: Date): Promise<boolean> =>
  silentAt(await listRules(scope), team, instant);
