import { describe, expect, it } from 'vitest';
import type { EscalationPolicy } from '#lib/escalation-policies/escalation-policy.ts';
import { defaultPlan, duePage, nextPage, policyPlan } from '#lib/incidents/escalation-plan.ts';

/** The escalation plan's arithmetic (docs/on-call.md, "Paging by level"), without a store. */
const MINUTE = 60_000;
const CREATED = '2026-03-29T00:30:00.000Z';
const at = (minutes: number): Date => new Date(Date.parse(CREATED) + minutes * MINUTE);

const policy = (delays: number[], repeat = 0): EscalationPolicy => ({
  id: 'P',
  name: 'P',
  levels: delays.map((delayMinutes) => ({ delayMinutes, targets: [{ type: 'email', address: 'a@b.io' }] })),
  repeat,
  createdAt: CREATED,
  updatedAt: CREATED,
});

const open = (changes: Record<string, unknown> = {}) => ({ status: 'OPEN' as const, createdAt: CREATED, ...changes });

describe('policyPlan', () => {
  it.each([
    [[0], 0, []],
    [[0, 1], 0, [[1, 2]]],
    [
      [0, 1, 5],
      0,
      [
        [1, 2],
        [6, 3],
      ],
    ],
    [[0, 0], 0, [[0, 2]]],
    [
      [0, 1],
      1,
      [
        [1, 2],
        [2, 1],
        [3, 2],
      ],
    ],
    [
      [2, 1],
      1,
      [
        [1, 2],
        [3, 1],
        [4, 2],
      ],
    ],
    [
      [10],
      2,
      [
        [10, 1],
        [20, 1],
      ],
    ],
    [[0, 5, 5], 5, null],
  ])('levels %j with repeat %i page at %j (minutes, level)', (delays, repeat, expected) => {
    const pages = policyPlan(policy(delays, repeat)).pages.map(({ offsetMs, level }) => [offsetMs / MINUTE, level]);
    if (expected) expect(pages).toEqual(expected);
    else expect(pages).toHaveLength(2 + 5 * 3);
  });
});

describe('defaultPlan (autoEscalate as it always was)', () => {
  it.each([
    [{}, [15, 30, 45]],
    [{ slaResponseDueAt: at(1).toISOString() }, [1, 2, 3]],
    [{ slaResponseDueAt: at(240).toISOString() }, [240, 270, 300]],
    [{ slaResponseDueAt: at(0).toISOString() }, [0, 1, 2]],
  ])('with %j pages escalations 1 to 3 at %j minutes', (incident, minutes) => {
    const plan = defaultPlan({ createdAt: CREATED, ...incident });
    expect(plan.pages.map(({ offsetMs }) => offsetMs / MINUTE)).toEqual(minutes);
    expect(plan.pages.map(({ level }) => level)).toEqual([2, 3, 4]);
    expect(plan.policy).toBeUndefined();
  });
});

describe('duePage', () => {
  const plan = policyPlan(policy([0, 1, 2], 1));

  it.each([
    [0.5, 0, undefined],
    [1, 0, undefined],
    [1.01, 0, { step: 1, level: 2, levels: [2] }],
    [1.01, 1, undefined],
    [3.5, 1, { step: 2, level: 3, levels: [3] }],
    [3.5, 0, { step: 2, level: 3, levels: [2, 3] }],
    [4.5, 2, { step: 3, level: 1, levels: [1] }],
    [60, 0, { step: 5, level: 3, levels: [2, 3, 1] }],
    [60, 5, undefined],
  ])('at minute %d with %i pages sent answers %j', (minute, sent, expected) => {
    const page = duePage(open({ escalationCount: sent }), plan, at(minute));
    if (expected) expect(page).toMatchObject(expected);
    else expect(page).toBeUndefined();
  });

  it('counts from escalationStartedAt when the escalation started again', () => {
    const restarted = open({ escalationStartedAt: at(30).toISOString() });
    expect(duePage(restarted, plan, at(30.5))).toBeUndefined();
    expect(duePage(restarted, plan, at(31.5))).toMatchObject({ step: 1, dueAt: at(31).toISOString() });
  });

  it.each(['ACKNOWLEDGED', 'INVESTIGATION', 'MITIGATED', 'RESOLVED', 'CLOSED'] as const)(
    'pages nothing for a %s incident',
    (status) => {
      expect(duePage({ ...open(), status }, plan, at(60))).toBeUndefined();
    },
  );

  it('keeps the default escalation: only the latest due, strictly after the deadline, at most three', () => {
    const legacy = defaultPlan({ createdAt: CREATED, slaResponseDueAt: at(5).toISOString() });
    expect(duePage(open(), legacy, at(5))).toBeUndefined();
    expect(duePage(open(), legacy, at(5.01))).toMatchObject({ step: 1, dueAt: at(5).toISOString() });
    expect(duePage(open(), legacy, at(12))).toMatchObject({ step: 2, dueAt: at(10).toISOString() });
    expect(duePage(open({ escalationCount: 3 }), legacy, at(600))).toBeUndefined();
    expect(duePage(open(), legacy, at(600))).toMatchObject({ step: 3, level: 4 });
  });
});

describe('nextPage (escalate now)', () => {
  it('takes the next page and moves the start so the pages after it keep their delays', () => {
    const plan = policyPlan(policy([0, 1, 2]));
    const next = nextPage({}, plan, at(0.5));
    expect(next?.page).toMatchObject({ step: 1, level: 2, dueAt: at(0.5).toISOString() });
    expect(next?.startedAt).toBe(at(-0.5).toISOString());
    const after = open({ escalationCount: 1, escalationStartedAt: next?.startedAt });
    expect(duePage(after, plan, at(2.4))).toBeUndefined();
    expect(duePage(after, plan, at(2.6))).toMatchObject({ step: 2, level: 3 });
  });

  it('answers nothing past the last page', () => {
    expect(nextPage({ escalationCount: 2 }, policyPlan(policy([0, 1, 2])), at(1))).toBeUndefined();
    expect(nextPage({}, policyPlan(policy([0])), at(1))).toBeUndefined();
  });

  it('walks the default escalation too', () => {
    const legacy = defaultPlan({ createdAt: CREATED });
    expect(nextPage({ escalationCount: 2 }, legacy, at(1))?.page).toMatchObject({ step: 3, level: 4 });
  });
});
