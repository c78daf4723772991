import { describe, expect, it } from 'vitest';
import { correlationBatch, type GroupStep } from '#lib/correlation/correlation-batch.ts';
import type { Scope } from '#lib/identity/scope.ts';

/** A step that records when it ran and with what, and settles when the test says. */
const controlled = () => {
  const calls: (string | undefined)[] = [];
  let settle: ((outcome: GroupStep) => void) | undefined;
  let fail: ((error: Error) => void) | undefined;
  const step = (openIncidentId: string | undefined) => {
    calls.push(openIncidentId);
    return new Promise<GroupStep>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
  };
  return { calls, step, settle: (outcome: GroupStep) => settle?.(outcome), fail: (error: Error) => fail?.(error) };
};

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("a correlation batch's lane per group", () => {
  it("holds a group's signals back until one finds or opens its incident, then runs the rest at once with it", async () => {
    const batch = correlationBatch();
    const first = controlled();
    const opened = batch.inGroup('w|rule|svc', first.step);
    const later = [1, 2, 3].map(() => batch.inGroup('w|rule|svc', async (id) => ({ kind: 'joined', incidentId: id })));
    const other = controlled();
    void batch.inGroup('w|rule|other', other.step);
    await turn();
    expect(first.calls).toEqual([undefined]);
    expect(other.calls).toEqual([undefined]);
    first.settle({ kind: 'opened', incidentId: 'INC-1' });
    await opened;
    expect(await Promise.all(later)).toEqual([1, 2, 3].map(() => ({ kind: 'joined', incidentId: 'INC-1' })));
    expect(await batch.inGroup('w|rule|svc', async (id) => ({ kind: 'joined', incidentId: id }))).toEqual({
      kind: 'joined',
      incidentId: 'INC-1',
    });
  });

  it('keeps a counting group one at a time', async () => {
    const batch = correlationBatch();
    const first = controlled();
    const second = controlled();
    void batch.inGroup('g', first.step);
    void batch.inGroup('g', second.step);
    await turn();
    expect(second.calls).toEqual([]);
    first.settle({ kind: 'counted' });
    await turn();
    await turn();
    expect(second.calls).toEqual([undefined]);
  });

  it('lets the rest of a group go side by side once a step failed, each deciding for itself', async () => {
    const batch = correlationBatch();
    const first = controlled();
    const failed = batch.inGroup('g', first.step).catch((error: Error) => error.message);
    const rest = [controlled(), controlled(), controlled()];
    for (const one of rest) void batch.inGroup('g', one.step);
    await turn();
    expect(rest.map((one) => one.calls)).toEqual([[], [], []]);
    first.fail(new Error('busy'));
    expect(await failed).toBe('busy');
    await turn();
    await turn();
    expect(rest.map((one) => one.calls)).toEqual([[undefined], [undefined], [undefined]]);
  });

  it("tells the group's later signals the incident's earliest signal that a step read", async () => {
    const batch = correlationBatch();
    const joinedAt = '2026-11-28T04:10:41.000Z';
    await batch.inGroup('g', async () => ({ kind: 'joined', incidentId: 'INC-1', firstSignalAt: joinedAt }));
    const seen = await batch.inGroup('g', async (id, firstSignalAt) => ({
      kind: 'joined',
      incidentId: id,
      firstSignalAt,
    }));
    expect(seen).toEqual({ kind: 'joined', incidentId: 'INC-1', firstSignalAt: joinedAt });
  });
});

describe("a correlation batch's shared reads", () => {
  const scopeOf = (workspaceId: string) => ({ workspaceId }) as Scope;

  it("reads a workspace's maintenance windows once for all its signals, and each workspace's apart", async () => {
    const batch = correlationBatch();
    const reads: string[] = [];
    const read = (workspaceId: string) => async () => {
      reads.push(workspaceId);
      return [];
    };
    await Promise.all(['w1', 'w1', 'w2', 'w1'].map((id) => batch.maintenanceWindows(scopeOf(id), read(id))));
    expect(reads).toEqual(['w1', 'w2']);
  });
});
