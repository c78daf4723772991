import type { Scope } from '#lib/identity/scope.ts';
import { signalLinkRepository } from '#lib/incidents/signal-link-repository.ts';
import { getSignal } from '#lib/signals/signal-service.ts';
import { type Signal, signalTime } from '#lib/signals/signal.ts';
import { firstMatchingRule, groupKeyOf } from './correlation-rule.ts';
import { correlationGroupRepository, type GroupMember } from './correlation-group-repository.ts';
import { effectiveRules } from './rule-service.ts';

/** How far a signal has come towards an incident (docs/correlation.md, "Progress of a signal"). */
export interface SignalCorrelation {
  ruleId: string;
  ruleName: string;
  groupKey: string;
  /** Signals counted in the signal's window; for a signal in an incident, the incident's signals. */
  signalsInWindow: number;
  minSignals: number;
  windowMinutes: number;
  incidentId: string | null;
}

const minutes = (count: number): number => count * 60_000;

/** The group's members within one window of the signal's time, either side, the signal included. */
const membersAround = (members: readonly GroupMember[], signal: Signal, windowMinutes: number): number => {
  const at = Date.parse(signalTime(signal));
  const around = members.filter((member) => Math.abs(Date.parse(member.at) - at) <= minutes(windowMinutes));
  return around.length + (members.some((member) => member.signalId === signal.id) ? 0 : 1);
};

/**
 * Computed when read, so it is current: the first active rule of the workspace's effective rules that
 * takes the signal, its group, and the count from the group's item (or the incident's links once the
 * signal is in one). Null when no rule takes the signal.
 */
export const correlationOf = async (scope: Scope, signal: Signal): Promise<SignalCorrelation | null> => {
  const { ports, workspaceId } = scope;
  const rule = firstMatchingRule(await effectiveRules(scope), signal);
  if (!rule) return null;
  const groupKey = groupKeyOf(rule, signal);
  const signalsInWindow = signal.incidentId
    ? (await signalLinkRepository(ports.table, workspaceId).listSignalLinks(signal.incidentId)).length
    : membersAround(
        (await correlationGroupRepository(ports.table, workspaceId).readGroup(rule.id, groupKey, ports.clock.now()))
          .members,
        signal,
        rule.windowMinutes,
      );
  return {
    ruleId: rule.id,
    ruleName: rule.name,
    groupKey,
    signalsInWindow,
    minSignals: rule.minSignals,
    windowMinutes: rule.windowMinutes,
    incidentId: signal.incidentId,
  };
};

/** `GET /signals/:id`: the whole signal and its correlation progress. */
export const getSignalWithCorrelation = async (
  scope: Scope,
  signalId: string,
): Promise<Signal & { correlation: SignalCorrelation | null }> => {
  const signal = await getSignal(scope, signalId);
  return { ...signal, correlation: await correlationOf(scope, signal) };
};
