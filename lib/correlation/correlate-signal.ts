import { setTimeout as delay } from 'node:timers/promises';
import { isDone } from '#lib/incidents/incident.ts';
import { incidentRepository } from '#lib/incidents/incident-repository.ts';
import { log } from '#lib/log/logger.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { type Signal, type SignalStatus, signalTime } from '#lib/signals/signal.ts';
import { firstMatchingRule, groupKeyOf, type CorrelationRule } from './correlation-rule.ts';
import type { CorrelationGroup, GroupMember } from './correlation-group-repository.ts';
import { correlationGroupRepository } from './correlation-group-repository.ts';
import { linkSignal } from './link-signal.ts';
import { heldForMaintenance } from './maintenance-hold.ts';
import type { CorrelationBatch } from './correlation-batch.ts';
import { systemScope, type Scope } from '#lib/identity/scope.ts';
import { signalIncidentRepository } from '#lib/signals/signal-incident-repository.ts';

export type CorrelationOutcome =
  | { kind: 'ignored'; reason: 'missing' | 'not-pending' | 'already-linked' | 'not-open' | 'no-rule' | 'maintenance' }
  | { kind: 'counted'; ruleId: string; groupKey: string; signals: number }
  | {
      kind: 'joined' | 'opened';
      ruleId: string;
      groupKey: string;
      incidentId: string;
      /** The incident's earliest signal as read: the batch's next signals of the group join knowing it. */
      firstSignalAt?: string | undefined;
    };

/** Only these signals correlate: SUPPRESSED ones never do, RESOLVED ones no longer fire. */
const CORRELATING: readonly SignalStatus[] = ['OPEN', 'ACKNOWLEDGED'];

/** Members a group keeps: the most signals a rule may ask for. */
const MAX_MEMBERS = 100;

/**
 * Rounds of read and conditional write before giving up and letting the queue retry the message, which
 * comes back only after the queue's visibility timeout (3 minutes). A group another worker is opening an
 * incident for is waited on for 0.1 s, doubling up to 1 s, about 6.5 s in all: in a storm, with batches
 * side by side, the opener's create can take seconds on a busy store, and a batch must still end well within
 * the worker's 30 s.
 */
const MAX_ATTEMPTS = 9;
const BUSY_WAIT_MS = 100;
const BUSY_WAIT_MAX_MS = 1_000;

/** An opening claim this old was left by a worker that stopped (twice the worker's 30 s timeout). */
const STALE_OPENING_MS = 60_000;

const minutes = (count: number): number => count * 60_000;

/** The group's members with this one, none older than the newest minus the window, at most MAX_MEMBERS. */
const keptMembers = (members: readonly GroupMember[], windowMinutes: number): GroupMember[] => {
  const newest = Math.max(...members.map((member) => Date.parse(member.at)));
  return members
    .filter((member) => Date.parse(member.at) >= newest - minutes(windowMinutes))
    .sort((a, b) => a.at.localeCompare(b.at))
    .slice(-MAX_MEMBERS);
};

/** The members of the fullest window of the rule's length that contains `at`. */
const fullestWindow = (members: readonly GroupMember[], at: string, windowMinutes: number): GroupMember[] => {
  const time = Date.parse(at);
  const length = minutes(windowMinutes);
  let fullest: GroupMember[] = [];
  for (const start of members.map((member) => Date.parse(member.at))) {
    if (start > time || start < time - length) continue;
    const inside = members.filter((member) => {
      const memberTime = Date.parse(member.at);
      return memberTime >= start && memberTime <= start + length;
    });
    if (inside.length > fullest.length) fullest = inside;
  }
  return fullest;
};

/** The correlating worker's scope, with the rule that took the signal and its group. */
interface GroupContext extends Scope {
  rule: CorrelationRule;
  groupKey: string;
}

/**
 * Links the signals that opened the group's incident, when the worker that opened it stopped before it
 * had linked them all, then clears the list. Links are idempotent, so any worker may do it.
 */
const finishLinking = async (context: GroupContext, group: CorrelationGroup, incidentId: string): Promise<void> => {
  const { ports, workspaceId, rule } = context;
  const signals = await signalIncidentRepository(ports.table, workspaceId).readSignals(group.linking);
  await Promise.all(signals.map((signal) => linkSignal(context, { incidentId, signal, ruleId: rule.id })));
  await correlationGroupRepository(ports.table, workspaceId).writeGroup(
    { ...group, linking: [] },
    group.rev,
    ports.clock.now(),
  );
};

/**
 * Gives up this worker's claim after its create failed (a throttled or failed write), so the message's
 * next delivery opens the incident at once instead of waiting a minute for the claim to go stale. If
 * the release fails too, the claim goes stale as for a worker that stopped.
 */
const releaseClaim = async (
  { ports, workspaceId, groupKey, rule }: GroupContext,
  group: CorrelationGroup,
  claimedRev: number,
): Promise<void> => {
  try {
    await correlationGroupRepository(ports.table, workspaceId).writeGroup(
      { ...group, opening: null },
      claimedRev,
      ports.clock.now(),
    );
  } catch (error) {
    log.warn('the claim on a correlation group could not be released; it goes stale in a minute', {
      error,
      groupKey,
      ruleId: rule.id,
    });
  }
};

/** Opening an incident is rare beside correlating: the incident write path is a chunk loaded by the first. */
const incidentWrites = onFirstUse(() => import('#lib/incidents/create-incident.ts'));
const incidentOpening = onFirstUse(() => import('./incident-from-signals.ts'));

/**
 * Opens the group's incident for `signals` (the new signal last). Write order: the claim on the group
 * (so one worker opens it), the incident, the group pointing at it with the signals still to link, the
 * links (the new signal's last), then the list cleared. A create that fails releases the claim and
 * fails the message, whose retry opens the incident. A worker that stops after the incident and
 * before the group write leaves an incident without signals, and the retry opens another; a worker that
 * stops later leaves work that the next run on the group finishes (`finishLinking`). Undefined when
 * another worker changed the group first.
 */
const openIncident = async (
  context: GroupContext,
  group: CorrelationGroup,
  members: GroupMember[],
  signals: readonly Signal[],
): Promise<string | undefined> => {
  const { ports, workspaceId, rule, groupKey } = context;
  const correlationGroups = correlationGroupRepository(ports.table, workspaceId);
  const now = ports.clock.now();
  const [signal] = signals.slice(-1);
  if (!signal) throw new Error('an incident is opened for at least one signal');
  const opening = { signalId: signal.id, attempt: ports.ids.uuid(), at: now.toISOString() };
  if (!(await correlationGroups.writeGroup({ ...group, members, opening }, group.rev, now))) return undefined;
  const [{ createIncident }, { incidentFromSignals }] = await Promise.all([incidentWrites(), incidentOpening()]);
  const scope = systemScope(workspaceId, ports);
  const incident = await incidentFromSignals(scope, rule, groupKey, signals)
    .then((input) => createIncident(scope, input))
    .catch(async (error: unknown) => {
      await releaseClaim(context, { ...group, members }, group.rev + 1);
      throw error;
    });
  const opened: CorrelationGroup = {
    ...group,
    members: [],
    incidentId: incident.id,
    openedAt: incident.createdAt,
    linking: signals.map(({ id }) => id),
    opening: null,
    rev: group.rev + 1,
  };
  if (!(await correlationGroups.writeGroup(opened, opened.rev, ports.clock.now()))) {
    throw new Error(
      `the claim on correlation group ${groupKey} of rule ${rule.id} was taken over; incident ${incident.id} has no signals`,
    );
  }
  const others = signals.slice(0, -1);
  await Promise.all(
    others.map((other) => linkSignal(context, { incidentId: incident.id, signal: other, ruleId: rule.id })),
  );
  await linkSignal(context, { incidentId: incident.id, signal, ruleId: rule.id });
  await correlationGroups.writeGroup({ ...opened, linking: [] }, opened.rev + 1, ports.clock.now());
  return incident.id;
};

const correlateInGroup = async (context: GroupContext, signal: Signal): Promise<CorrelationOutcome> => {
  const { ports, workspaceId, rule, groupKey } = context;
  const correlationGroups = correlationGroupRepository(ports.table, workspaceId);
  const at = signalTime(signal);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const now = ports.clock.now();
    const group = await correlationGroups.readGroup(rule.id, groupKey, now);
    const incident = group.incidentId
      ? await incidentRepository(ports.table, workspaceId).getIncident(group.incidentId)
      : undefined;
    if (incident && group.linking.length > 0) {
      await finishLinking(context, group, incident.id);
      continue;
    }
    if (incident && !isDone(incident.status)) {
      const { firstSignalAt } = incident;
      await linkSignal(context, {
        incidentId: incident.id,
        signal,
        ruleId: rule.id,
        incidentFirstSignalAt: firstSignalAt,
      });
      return { kind: 'joined', ruleId: rule.id, groupKey, incidentId: incident.id, firstSignalAt };
    }
    const { opening } = group;
    if (opening && now.getTime() - Date.parse(opening.at) < STALE_OPENING_MS) {
      await delay(Math.min(BUSY_WAIT_MS * 2 ** (attempt - 1), BUSY_WAIT_MAX_MS));
      continue;
    }
    const all = group.members.some((member) => member.signalId === signal.id)
      ? group.members
      : [...group.members, { signalId: signal.id, at }];
    let members = keptMembers(all, rule.windowMinutes);
    const window = fullestWindow(all, at, rule.windowMinutes);
    if (window.length >= rule.minSignals) {
      // Counted signals may have been suppressed, resolved or linked since: only those still open count.
      const others = await signalIncidentRepository(ports.table, workspaceId).readSignals(
        window.filter((member) => member.signalId !== signal.id).map((member) => member.signalId),
      );
      const live = others.filter((other) => CORRELATING.includes(other.status) && !other.incidentId);
      const gone = new Set(
        window
          .map((member) => member.signalId)
          .filter((id) => id !== signal.id && !live.some((other) => other.id === id)),
      );
      members = members.filter((member) => !gone.has(member.signalId));
      if (live.length + 1 >= rule.minSignals) {
        const incidentId = await openIncident(context, group, members, [...live, signal]);
        if (incidentId) return { kind: 'opened', ruleId: rule.id, groupKey, incidentId };
        continue;
      }
    }
    if (await correlationGroups.writeGroup({ ...group, members, opening: null }, group.rev, now)) {
      return {
        kind: 'counted',
        ruleId: rule.id,
        groupKey,
        signals: fullestWindow(members, at, rule.windowMinutes).length,
      };
    }
  }
  throw new Error(`correlation group ${groupKey} of rule ${rule.id} stayed busy; the message will be retried`);
};

/**
 * Correlates one stored signal (docs/correlation.md): the first active rule that matches it puts it in
 * a group; it joins the group's incident while that is neither RESOLVED nor CLOSED, else it is counted,
 * and the signal that brings the group to the rule's threshold within its window opens an incident for
 * the counted signals. At the end the signal leaves the pending index, and the time since it was
 * received (its `createdAt`) is the correlation lag.
 *
 * Delivery is at least once, and the sweep re-sends signals, so this is idempotent: a signal that is no
 * longer pending or already has an incident is left alone, and every write is conditional.
 *
 * The signals of one queue batch share `batch`: the rules read once, and a lane per group, in which a
 * signal joins the incident an earlier signal of the batch found open or opened (docs/correlation.md,
 * "A batch at a time").
 *
 * A signal of a service in maintenance is held (`heldForMaintenance`): it joins no group.
 *
 * Silent hours are not read here: they mute notifications only and never stop an incident from being
 * opened, so correlation does not consult them.
 */
export const correlateSignal = async (
  scope: Scope,
  { signalId, batch }: { signalId: string; batch: CorrelationBatch },
): Promise<CorrelationOutcome> => {
  const { ports, workspaceId } = scope;
  const signalIncidents = signalIncidentRepository(ports.table, workspaceId);
  const found = await signalIncidents.readSignalForCorrelation(signalId);
  if (!found) return { kind: 'ignored', reason: 'missing' };
  const { signal, pending } = found;
  if (!pending) return { kind: 'ignored', reason: 'not-pending' };
  const finish = async <O extends CorrelationOutcome>(outcome: O): Promise<O> => {
    // Only the delivery that takes the signal off the pending index measures it, so a redelivery or
    // the sweep's re-send does not count the signal twice.
    if (await signalIncidents.markCorrelated(signal.id)) {
      ports.metrics.duration('CorrelationLag', ports.clock.now().getTime() - Date.parse(signal.createdAt));
    }
    return outcome;
  };
  if (signal.incidentId) return finish({ kind: 'ignored', reason: 'already-linked' });
  if (!CORRELATING.includes(signal.status)) return finish({ kind: 'ignored', reason: 'not-open' });
  if (await heldForMaintenance(scope, signal, batch)) return finish({ kind: 'ignored', reason: 'maintenance' });
  const rule = firstMatchingRule(await batch.rules(scope), signal);
  if (!rule) return finish({ kind: 'ignored', reason: 'no-rule' });
  const context: GroupContext = { ...scope, rule, groupKey: groupKeyOf(rule, signal) };
  const groupId = `${workspaceId}|${rule.id}|${context.groupKey}`;
  const outcome = await batch.inGroup(groupId, async (openIncidentId, firstSignalAt) => {
    if (!openIncidentId) return correlateInGroup(context, signal);
    // A signal of this batch found the group's incident open or opened it a moment ago: join it.
    const linking = { incidentId: openIncidentId, signal, ruleId: rule.id, incidentFirstSignalAt: firstSignalAt };
    await linkSignal(context, linking);
    return { kind: 'joined', ruleId: rule.id, groupKey: context.groupKey, incidentId: openIncidentId } as const;
  });
  return finish(outcome);
};
