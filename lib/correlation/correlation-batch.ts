import type { Scope } from '#lib/identity/scope.ts';
import type { MaintenanceWindow } from '#lib/maintenance/maintenance-window.ts';
import type { CorrelationRule } from './correlation-rule.ts';
import { effectiveRules } from './rule-service.ts';

/** What correlating one signal in its group came to: an incident it is in now, or none. */
export interface GroupStep {
  kind: string;
  incidentId?: string;
  /** The incident's earliest signal as the step saw it: a later signal need not try to lower it. */
  firstSignalAt?: string | undefined;
}

/**
 * What the signals of one queue batch share (docs/correlation.md, "A batch at a time"): the workspace's
 * rules, read once per batch instead of once per signal, and a lane per group. In a storm a batch holds
 * many signals of one group; correlated one after another each would read the group and its incident
 * again and wait for the one before, so a later group's first signal waited behind every repeat of the
 * others. In its lane a group's signals go one at a time only until one of them has found or opened the
 * group's open incident; every signal after that links to it at once, side by side.
 */
export interface CorrelationBatch {
  rules(scope: Scope): Promise<CorrelationRule[]>;
  /**
   * The workspace's maintenance windows, read once per batch: every signal that names a service asks
   * whether one holds it (`read` is the one Query, loaded by the caller so the batch stays small).
   */
  maintenanceWindows(scope: Scope, read: () => Promise<MaintenanceWindow[]>): Promise<MaintenanceWindow[]>;
  /**
   * Runs `step` for a signal of the group `groupId` once the signals before it in the group have
   * found no incident, or at once when one has: `step` is then given that open incident, and its earliest
   * signal's time when a step before it learnt it.
   */
  inGroup<S extends GroupStep>(
    groupId: string,
    step: (openIncidentId: string | undefined, firstSignalAt: string | undefined) => Promise<S>,
  ): Promise<S>;
}

interface Lane {
  /** Settles when the next signal of the group may go: the one before decided, or an incident is known. */
  tail: Promise<void>;
  incidentId: string | undefined;
  firstSignalAt: string | undefined;
  /**
   * A signal's step failed (the group stayed busy with another worker's opening): the rest go side by side,
   * each deciding for itself, so one after another they do not each wait out the busy group and outrun the
   * worker's timeout.
   */
  failed: boolean;
}

/** A batch's shared state; made once per invocation of the correlation worker. */
export const correlationBatch = (): CorrelationBatch => {
  const rules = new Map<string, Promise<CorrelationRule[]>>();
  const windows = new Map<string, Promise<MaintenanceWindow[]>>();
  const lanes = new Map<string, Lane>();
  /** One read per workspace and batch, shared by every signal that asks. */
  const once = <T>(reads: Map<string, Promise<T>>, workspaceId: string, read: () => Promise<T>): Promise<T> => {
    const shared = reads.get(workspaceId) ?? read();
    reads.set(workspaceId, shared);
    return shared;
  };
  return {
    rules: (scope) => once(rules, scope.workspaceId, () => effectiveRules(scope)),
    maintenanceWindows: (scope, read) => once(windows, scope.workspaceId, read),
    inGroup<S extends GroupStep>(
      groupId: string,
      step: (openIncidentId: string | undefined, firstSignalAt: string | undefined) => Promise<S>,
    ) {
      const lane: Lane = lanes.get(groupId) ?? {
        tail: Promise.resolve(),
        incidentId: undefined,
        firstSignalAt: undefined,
        failed: false,
      };
      lanes.set(groupId, lane);
      const decided = () => lane.incidentId !== undefined || lane.failed;
      if (decided()) return step(lane.incidentId, lane.firstSignalAt);
      const before = lane.tail;
      const turn = before.then(() => step(lane.incidentId, lane.firstSignalAt));
      const learn = (outcome: S): void => {
        if (outcome.incidentId && (outcome.kind === 'opened' || outcome.kind === 'joined')) {
          lane.incidentId = outcome.incidentId;
          lane.firstSignalAt = outcome.firstSignalAt;
        }
      };
      const fail = (): void => {
        lane.failed = true;
      };
      lane.tail = before.then(() => (decided() ? undefined : turn.then(learn, fail)));
      return turn;
    },
  };
};
