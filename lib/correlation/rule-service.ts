import { ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import { byRuleOrder, type CorrelationRule } from './correlation-rule.ts';
import { correlationRuleRepository } from './correlation-rule-repository.ts';
import { DEFAULT_RULES } from './default-rules.ts';
import type { CreateRuleInput, UpdateRuleInput } from './schemas.ts';
import type { Scope } from '#lib/identity/scope.ts';

/** Every signal reads all rules of its workspace, so their number stays small. */
export const MAX_RULES = 50;

/** A ULID or a built-in default's id; anything else names no rule and is answered without a read. */
const isRuleId = (value: string): boolean => /^(default-[a-z]+|[0-9A-HJKMNP-TV-Z]{26})$/.test(value);

const notFound = (ruleId: string): NotFoundError =>
  new NotFoundError('Correlation rule not found', [`id: no correlation rule ${ruleId} in this workspace`]);

/**
 * The rules correlation applies, in the order it tries them: the workspace's own once it has written
 * any, else the built-in defaults.
 */
export const effectiveRules = async ({ ports: { table }, workspaceId }: Scope): Promise<CorrelationRule[]> => {
  const { written, rules } = await correlationRuleRepository(table, workspaceId).readStoredRules();
  return (written ? rules : [...DEFAULT_RULES]).sort(byRuleOrder);
};

export const getRule = async (scope: Scope, ruleId: string): Promise<CorrelationRule> => {
  const rule = isRuleId(ruleId) ? (await effectiveRules(scope)).find(({ id }) => id === ruleId) : undefined;
  if (!rule) throw notFound(ruleId);
  return rule;
};

/**
 * Before its first write a workspace's rules are the defaults, held in code. The first write stores
 * them under their own ids, then the marker that the workspace's rules are now its stored ones; a
 * crash in between leaves some defaults stored without the marker, which changes nothing (the same
 * defaults still apply) and the next write completes.
 */
const storeDefaultsOnce = async ({ ports: { table, clock }, workspaceId }: Scope): Promise<CorrelationRule[]> => {
  const correlationRules = correlationRuleRepository(table, workspaceId);
  const stored = await correlationRules.readStoredRules();
  if (stored.written) return stored.rules;
  const at = clock.now().toISOString();
  const missing = DEFAULT_RULES.filter((rule) => !stored.rules.some(({ id }) => id === rule.id)).map(
    (rule): CorrelationRule => ({ ...rule, createdAt: at, updatedAt: at }),
  );
  await Promise.all(missing.map((rule) => correlationRules.insertRule(rule)));
  await correlationRules.markRulesWritten(at);
  return [...stored.rules, ...missing];
};

export const createRule = async (scope: Scope, input: CreateRuleInput): Promise<CorrelationRule> => {
  const { ports: services, workspaceId } = scope;
  const existing = await storeDefaultsOnce(scope);
  if (existing.length >= MAX_RULES) {
    throw new ConflictError('The workspace has reached its limit of correlation rules', [
      `at most ${MAX_RULES} rules; delete or edit one instead`,
    ]);
  }
  const at = services.clock.now().toISOString();
  const rule: CorrelationRule = {
    id: services.ids.sortable(),
    ...input,
    isDefault: false,
    createdAt: at,
    updatedAt: at,
  };
  await correlationRuleRepository(services.table, workspaceId).insertRule(rule);
  return rule;
};

/** Changes only the fields given; an edited default rule keeps its id and `isDefault`. */
export const updateRule = async (
  scope: Scope,
  { id: ruleId, changes }: { id: string; changes: UpdateRuleInput },
): Promise<CorrelationRule> => {
  const { ports: services, workspaceId } = scope;
  if (!isRuleId(ruleId)) throw notFound(ruleId);
  await storeDefaultsOnce(scope);
  const updated = await correlationRuleRepository(services.table, workspaceId).updateStoredRule(ruleId, {
    ...changes,
    updatedAt: services.clock.now().toISOString(),
  });
  if (!updated) throw notFound(ruleId);
  return updated;
};

/**
 * Deletes a rule, a default one included: a workspace that deleted every rule has none, and no signal
 * opens an incident. The groups the rule formed stay until they expire; no other rule reads them.
 */
export const deleteRule = async (scope: Scope, ruleId: string): Promise<{ id: string }> => {
  const { ports: services, workspaceId } = scope;
  if (!isRuleId(ruleId)) throw notFound(ruleId);
  await storeDefaultsOnce(scope);
  if (!(await correlationRuleRepository(services.table, workspaceId).deleteStoredRule(ruleId))) throw notFound(ruleId);
  return { id: ruleId };
};
