import type { Scope } from '#lib/identity/scope.ts';
import {
  ACTION_EXECUTIONS,
  actionContributions,
  atStep,
  playbookActionRepository,
} from './playbook-action-repository.ts';
import { executionCounterRepository, PLAYBOOK_STAT, type PlaybookStats, STAT } from './execution-counter-repository.ts';
import { findExecution } from './execution-service.ts';
import { readCountedTotal } from '#lib/store/list-counters.ts';
import { PLAYBOOK_COUNTER } from './playbook-counter.ts';

const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** A share, 0 without any case to share. */
const rate = (part: number, whole: number): number => (whole > 0 ? round(part / whole, 3) : 0);

/** Totals, means and rates from the counters kept on every write: two GetItems however many executions. */
export const playbookStats = async ({ ports, workspaceId }: Scope) => {
  const [totalPlaybooks, counts] = await Promise.all([
    readCountedTotal(ports.table, workspaceId, PLAYBOOK_COUNTER, {}),
    executionCounterRepository(ports.table, workspaceId).readExecutionCounter(),
  ]);
  const completed = counts['status#COMPLETED'] ?? 0;
  const stepsCompleted = counts[STAT.stepsCompleted] ?? 0;
  const stepsSkipped = counts[STAT.stepsSkipped] ?? 0;
  return {
    totalPlaybooks,
    totalExecutions: counts.total ?? 0,
    completedExecutions: completed,
    cancelledExecutions: counts['status#CANCELLED'] ?? 0,
    inProgressExecutions: counts['status#IN_PROGRESS'] ?? 0,
    averageCompletionMinutes: completed > 0 ? round((counts[STAT.completionMsSum] ?? 0) / completed / 60_000, 2) : 0,
    stepSkipRate: rate(stepsSkipped, stepsCompleted + stepsSkipped),
  };
};

/** docs/playbooks.md, "Patterns": how often something must happen before it is reported. */
export const PATTERN_THRESHOLDS = {
  /** Skips of one step, executions recording one action, or ended executions of one playbook. */
  minOccurrences: 2,
  /** A step skipped at least this share of the times it was reached. */
  minSkipRate: 0.5,
  /** A playbook whose ended executions were cancelled more than this share of the time. */
  cancelRateAbove: 0.5,
} as const;

/** The positive counts under one attribute prefix, by the URI-encoded text after it. */
const countsUnder = (counts: Record<string, number>, prefix: string) =>
  Object.entries(counts)
    .filter(([name, count]) => name.startsWith(prefix) && count > 0)
    .map(([name, count]) => ({ key: name.slice(prefix.length), count }));

const skippedSteps = (stats: PlaybookStats[]) =>
  stats
    .flatMap(({ playbookId, playbookTitle, counts }) =>
      countsUnder(counts, PLAYBOOK_STAT.stepSkipped).map(({ key, count }) => {
        const reached = count + (counts[`${PLAYBOOK_STAT.stepCompleted}${key}`] ?? 0);
        return {
          playbookId,
          playbookTitle,
          step: decodeURIComponent(key),
          skipped: count,
          reached,
          skipRate: rate(count, reached),
        };
      }),
    )
    .filter(
      ({ skipped, skipRate }) =>
        skipped >= PATTERN_THRESHOLDS.minOccurrences && skipRate >= PATTERN_THRESHOLDS.minSkipRate,
    )
    .sort((a, b) => b.skipped - a.skipped || b.skipRate - a.skipRate);

/** Summed over every playbook's action items: one Query per playbook that ran, in parallel. */
const recurringActions = async ({ ports, workspaceId }: Scope, stats: PlaybookStats[]) => {
  const actions = playbookActionRepository(ports.table, workspaceId);
  const perPlaybook = await Promise.all(
    stats.map(async ({ playbookId }) => ({
      playbookId,
      actions: await actions.readPlaybookActions(playbookId),
    })),
  );
  const byAction = new Map<string, { executions: number; playbookIds: string[] }>();
  for (const { playbookId, actions } of perPlaybook) {
    for (const { action, counts } of actions) {
      const executions = counts[ACTION_EXECUTIONS] ?? 0;
      if (executions <= 0) continue;
      const entry = byAction.get(action) ?? { executions: 0, playbookIds: [] };
      entry.executions += executions;
      entry.playbookIds.push(playbookId);
      byAction.set(action, entry);
    }
  }
  return [...byAction]
    .map(([action, entry]) => ({ action, ...entry }))
    .filter(({ executions }) => executions >= PATTERN_THRESHOLDS.minOccurrences)
    .sort((a, b) => b.executions - a.executions || a.action.localeCompare(b.action));
};

const usuallyCancelled = (stats: PlaybookStats[]) =>
  stats
    .map(({ playbookId, playbookTitle, counts }) => {
      const cancelled = counts['status#CANCELLED'] ?? 0;
      const ended = cancelled + (counts['status#COMPLETED'] ?? 0);
      return { playbookId, playbookTitle, endedExecutions: ended, cancelled, cancelRate: rate(cancelled, ended) };
    })
    .filter(
      ({ endedExecutions, cancelRate }) =>
        endedExecutions >= PATTERN_THRESHOLDS.minOccurrences && cancelRate > PATTERN_THRESHOLDS.cancelRateAbove,
    )
    .sort((a, b) => b.cancelRate - a.cancelRate || b.cancelled - a.cancelled);

/** Patterns across executions, from the playbooks' counters: one Query, then one per playbook for actions. */
export const executionPatterns = async (scope: Scope) => {
  const stats = await executionCounterRepository(scope.ports.table, scope.workspaceId).readAllPlaybookStats();
  return {
    frequentlySkippedSteps: skippedSteps(stats),
    recurringActions: await recurringActions(scope, stats),
    usuallyCancelledPlaybooks: usuallyCancelled(stats),
    thresholds: PATTERN_THRESHOLDS,
  };
};

const MAX_ACTION_SUGGESTIONS = 10;

/**
 * What to do next in a running execution: its remaining steps in order, then the ad-hoc actions other
 * executions of the same playbook recorded at this step, most frequent first. A finished execution has none.
 */
export const executionSuggestions = async (scope: Scope, executionId: string) => {
  const { execution } = await findExecution(scope, executionId);
  if (execution.status !== 'IN_PROGRESS') return [];
  const own = actionContributions(execution);
  const atCurrent = atStep(execution.currentStepIndex);
  const recorded = await playbookActionRepository(scope.ports.table, scope.workspaceId).readPlaybookActions(
    execution.playbookId,
  );
  const steps = execution.steps
    .filter((step) => step.index >= execution.currentStepIndex)
    .map((step) => ({
      type: 'STEP' as const,
      stepIndex: step.index,
      title: step.title,
      instructions: step.instructions,
      optional: step.optional,
    }));
  const actions = recorded
    .map(({ key, action, counts }) => ({ action, count: (counts[atCurrent] ?? 0) - (own.get(key)?.[atCurrent] ?? 0) }))
    .filter(({ count }) => count > 0)
    .sort((a, b) => b.count - a.count || a.action.localeCompare(b.action))
    .slice(0, MAX_ACTION_SUGGESTIONS)
    .map(({ action, count }) => ({ type: 'AD_HOC_ACTION' as const, description: action, occurrences: count }));
  return [...steps, ...actions];
};
