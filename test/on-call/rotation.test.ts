import { describe, expect, it } from 'vitest';
import { calendarFeed } from '#lib/on-call/calendar-feed.ts';
import { finalShifts, nextOnCall, onCallAt, type ScheduleOverride } from '#lib/on-call/final-shifts.ts';
import { layerShifts, rotationShifts, type ScheduleLayer } from '#lib/on-call/rotation.ts';

const t = (iso: string): number => Date.parse(iso);
const window = (from: string, to: string) => ({ start: t(from), end: t(to) });
const iso = (shift: { userId: string; start: number; end: number }) =>
  `${shift.userId} ${new Date(shift.start).toISOString()} ${new Date(shift.end).toISOString()}`;

const weekly = (overrides: Partial<ScheduleLayer> = {}): ScheduleLayer => ({
  start: '2026-03-02T09:00:00Z',
  rotationType: 'weekly',
  handoffTime: '09:00',
  members: ['A', 'B'],
  ...overrides,
});
const daily = (overrides: Partial<ScheduleLayer> = {}): ScheduleLayer => ({
  ...weekly(),
  rotationType: 'daily',
  ...overrides,
});
const whoAt = (layers: ScheduleLayer[], at: string, timezone = 'UTC', overrides: ScheduleOverride[] = []) =>
  onCallAt({ timezone, layers }, overrides, t(at))?.userId;

describe('rotation turns', () => {
  it.each([
    ['2026-03-02T09:00:00Z', 'A'],
    ['2026-03-09T08:59:59Z', 'A'],
    ['2026-03-09T09:00:00Z', 'B'],
    ['2026-03-16T09:00:00Z', 'A'],
    ['2026-03-23T09:00:00Z', 'B'],
    ['2027-03-01T09:00:00Z', 'A'], // 52 weeks on: an even turn,
  ])('weekly: at %s %s is on call', (at, who) => expect(whoAt([weekly()], at)).toBe(who));

  it.each([
    ['2026-03-02T10:00:00Z', 'A'],
    ['2026-03-03T09:00:00Z', 'B'],
    ['2026-03-04T08:59:00Z', 'B'],
    ['2026-03-04T09:00:00Z', 'C'],
    ['2026-03-05T09:00:00Z', 'A'],
  ])('daily of three: at %s %s', (at, who) => expect(whoAt([daily({ members: ['A', 'B', 'C'] })], at)).toBe(who));

  it.each([
    ['2026-03-02T09:00:00Z', 'A'],
    ['2026-03-02T20:59:00Z', 'A'],
    ['2026-03-02T21:00:00Z', 'B'],
    ['2026-03-03T09:00:00Z', 'A'],
  ])('custom 12 hours: at %s %s', (at, who) =>
    expect(whoAt([weekly({ rotationType: 'custom', rotationHours: 12 })], at)).toBe(who),
  );

  it('nobody is on call before the layer starts', () =>
    expect(whoAt([weekly()], '2026-03-02T08:59:00Z')).toBeUndefined());
  it('a layer without members covers nothing', () =>
    expect(whoAt([weekly({ members: [] })], '2026-03-05T00:00:00Z')).toBeUndefined());
  it('one member is always on call, in one merged shift', () => {
    const shifts = finalShifts(
      { timezone: 'UTC', layers: [weekly({ members: ['A'] })] },
      [],
      window('2026-03-02T09:00:00Z', '2026-03-30T09:00:00Z'),
    );
    expect(shifts.map(iso)).toEqual(['A 2026-03-02T09:00:00.000Z 2026-03-30T09:00:00.000Z']);
  });
  it('a start before the handoff time gives the first member the rest of the period, not a stub', () => {
    const layer = weekly({ start: '2026-03-02T07:00:00Z' });
    expect(rotationShifts(layer, 'UTC', window('2026-03-02T00:00:00Z', '2026-03-20T00:00:00Z')).map(iso)).toEqual([
      'A 2026-03-02T07:00:00.000Z 2026-03-09T09:00:00.000Z',
      'B 2026-03-09T09:00:00.000Z 2026-03-16T09:00:00.000Z',
      'A 2026-03-16T09:00:00.000Z 2026-03-20T00:00:00.000Z',
    ]);
  });
  it('a member removed mid-rotation: the remaining members keep turns from the list as it is now', () => {
    expect(whoAt([daily({ members: ['A', 'C'] })], '2026-03-04T10:00:00Z')).toBe('A');
    expect(whoAt([daily({ members: ['A', 'C'] })], '2026-03-05T10:00:00Z')).toBe('C');
  });
});

describe('across clock changes', () => {
  const berlin = daily({ start: '2026-03-27T08:00:00Z', members: ['A', 'B'] }); // 09:00 CET
  it.each([
    ['2026-03-28T07:59:00Z', 'A'],
    ['2026-03-28T08:00:00Z', 'B'], // Sat 09:00 CET
    ['2026-03-29T06:59:00Z', 'B'],
    ['2026-03-29T07:00:00Z', 'A'], // Sun 09:00 CEST, an hour earlier in UTC
    ['2026-10-25T08:00:00Z', 'A'], // Sun 09:00 CET again (212 days after start)
  ])('Berlin daily at 09:00 local: at %s %s', (at, who) => expect(whoAt([berlin], at, 'Europe/Berlin')).toBe(who));

  it('the spring-forward night shift is 23 hours long', () => {
    const shifts = rotationShifts(berlin, 'Europe/Berlin', window('2026-03-28T08:00:00Z', '2026-03-29T07:00:00Z'));
    expect(shifts.map((s) => (s.end - s.start) / 3_600_000)).toEqual([23]);
  });
  it('the fall-back shift is 25 hours long', () => {
    const shifts = rotationShifts(berlin, 'Europe/Berlin', window('2026-10-24T07:00:00Z', '2026-10-25T08:00:00Z'));
    expect(shifts.map((s) => (s.end - s.start) / 3_600_000)).toEqual([25]);
  });
  it('weekly handoffs stay on Monday 09:00 New York time through the March change', () => {
    const layer = weekly({ start: '2026-03-02T14:00:00Z' });
    const shifts = rotationShifts(layer, 'America/New_York', window('2026-03-02T14:00:00Z', '2026-03-16T13:00:00Z'));
    expect(shifts.map(iso)).toEqual([
      'A 2026-03-02T14:00:00.000Z 2026-03-09T13:00:00.000Z',
      'B 2026-03-09T13:00:00.000Z 2026-03-16T13:00:00.000Z',
    ]);
  });
  it('custom rotations count elapsed hours, so the wall-clock handoff moves by the jump', () => {
    const layer = weekly({ start: '2026-03-28T08:00:00Z', rotationType: 'custom', rotationHours: 24 });
    expect(whoAt([layer], '2026-03-29T07:30:00Z', 'Europe/Berlin')).toBe('A');
    expect(whoAt([layer], '2026-03-29T08:00:00Z', 'Europe/Berlin')).toBe('B');
  });
  it('a handoff at a skipped time (02:30 on spring-forward) happens at 03:30', () => {
    const layer = daily({ start: '2026-03-27T01:30:00Z', handoffTime: '02:30' });
    const shifts = rotationShifts(layer, 'Europe/Berlin', window('2026-03-28T12:00:00Z', '2026-03-29T12:00:00Z'));
    expect(shifts.map(iso)[1]).toBe('A 2026-03-29T01:30:00.000Z 2026-03-29T12:00:00.000Z');
  });
});

describe('restricted layers and stacking', () => {
  const business = { daysOfWeek: [1, 2, 3, 4, 5], startTime: '09:00', endTime: '17:00' };
  const dayLayer = weekly({ members: ['D'], restrictions: business });
  it.each([
    ['2026-03-02T10:00:00Z', 'D'],
    ['2026-03-02T17:00:00Z', 'A'],
    ['2026-03-07T10:00:00Z', 'A'], // Saturday
    ['2026-03-06T16:59:00Z', 'D'],
    ['2026-03-09T12:00:00Z', 'D'],
    ['2026-03-10T03:00:00Z', 'B'],
  ])('later working-hours layer over a weekly one: at %s %s', (at, who) =>
    expect(whoAt([weekly(), dayLayer], at)).toBe(who),
  );

  it('an earlier restricted layer never wins over a later full one', () =>
    expect(whoAt([dayLayer, weekly()], '2026-03-02T10:00:00Z')).toBe('A'));
  it('a restriction across midnight covers the night into the next day', () => {
    const night = weekly({ members: ['N'], restrictions: { daysOfWeek: [1], startTime: '22:00', endTime: '06:00' } });
    expect(whoAt([weekly(), night], '2026-03-03T05:00:00Z')).toBe('N');
    expect(whoAt([weekly(), night], '2026-03-03T06:00:00Z')).toBe('A');
  });
  it('restrictions follow the schedule zone across DST', () => {
    const shifts = layerShifts(dayLayer, 'Europe/Berlin', window('2026-03-27T00:00:00Z', '2026-03-31T00:00:00Z'));
    expect(shifts.map(iso)).toEqual([
      'D 2026-03-27T08:00:00.000Z 2026-03-27T16:00:00.000Z',
      'D 2026-03-30T07:00:00.000Z 2026-03-30T15:00:00.000Z',
    ]);
  });
  it('a gap where only a restricted layer exists has nobody on call', () =>
    expect(whoAt([dayLayer], '2026-03-07T10:00:00Z')).toBeUndefined());
  it('final shifts split and resume around the working-hours layer', () => {
    const shifts = finalShifts(
      { timezone: 'UTC', layers: [weekly(), dayLayer] },
      [],
      window('2026-03-02T09:00:00Z', '2026-03-03T09:00:00Z'),
    );
    expect(shifts.map(iso)).toEqual([
      'D 2026-03-02T09:00:00.000Z 2026-03-02T17:00:00.000Z',
      'A 2026-03-02T17:00:00.000Z 2026-03-03T09:00:00.000Z',
    ]);
  });
});

describe('overrides', () => {
  const schedule = { timezone: 'UTC', layers: [weekly()] };
  const override = (userId: string, start: string, end: string, id = 'o1'): ScheduleOverride => ({
    id,
    userId,
    start: t(start),
    end: t(end),
  });
  it('an override wins over every layer', () =>
    expect(
      onCallAt(schedule, [override('C', '2026-03-03T00:00:00Z', '2026-03-04T00:00:00Z')], t('2026-03-03T12:00:00Z')),
    ).toMatchObject({
      userId: 'C',
      source: { type: 'override', overrideId: 'o1' },
    }));
  it('the layer resumes when the override ends', () =>
    expect(
      whoAt(schedule.layers, '2026-03-04T00:00:00Z', 'UTC', [
        override('C', '2026-03-03T00:00:00Z', '2026-03-04T00:00:00Z'),
      ]),
    ).toBe('A'));
  it('an override over a handoff splits both sides', () => {
    const shifts = finalShifts(
      schedule,
      [override('C', '2026-03-09T06:00:00Z', '2026-03-09T12:00:00Z')],
      window('2026-03-09T00:00:00Z', '2026-03-10T00:00:00Z'),
    );
    expect(shifts.map(iso)).toEqual([
      'A 2026-03-09T00:00:00.000Z 2026-03-09T06:00:00.000Z',
      'C 2026-03-09T06:00:00.000Z 2026-03-09T12:00:00.000Z',
      'B 2026-03-09T12:00:00.000Z 2026-03-10T00:00:00.000Z',
    ]);
  });
  it('an override for the member already on call still says it came from the override', () =>
    expect(
      onCallAt(schedule, [override('A', '2026-03-03T00:00:00Z', '2026-03-04T00:00:00Z')], t('2026-03-03T01:00:00Z'))
        ?.source.type,
    ).toBe('override'));
  it('overlapping overrides: the one listed later wins', () =>
    expect(
      whoAt(schedule.layers, '2026-03-03T02:00:00Z', 'UTC', [
        override('C', '2026-03-03T00:00:00Z', '2026-03-03T05:00:00Z'),
        override('E', '2026-03-03T01:00:00Z', '2026-03-03T03:00:00Z', 'o2'),
      ]),
    ).toBe('E'));
  it('an override on a schedule with no layers puts someone on call', () =>
    expect(
      whoAt([], '2026-03-03T02:00:00Z', 'UTC', [override('C', '2026-03-03T00:00:00Z', '2026-03-03T05:00:00Z')]),
    ).toBe('C'));
  it('on-call answers the whole shift around the instant', () => {
    const shift = onCallAt(schedule, [], t('2026-03-12T00:00:00Z'));
    expect(shift && iso(shift)).toBe('B 2026-03-09T09:00:00.000Z 2026-03-16T09:00:00.000Z');
  });
  it('next on call is the following shift', () =>
    expect(nextOnCall(schedule, [], t('2026-03-12T00:00:00Z'))?.userId).toBe('A'));
});

describe('calendar feed', () => {
  const shifts = finalShifts(
    { timezone: 'UTC', layers: [weekly()] },
    [],
    window('2026-03-02T09:00:00Z', '2026-03-16T09:00:00Z'),
  );
  const feed = calendarFeed({
    scheduleId: 's1',
    scheduleName: 'Checkout, primary',
    shifts,
    nameOf: (id) => `Member ${id}`,
    generatedAt: t('2026-03-01T00:00:00Z'),
  });
  it('is a VCALENDAR with CRLF lines and one event per shift', () => {
    expect(feed.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(feed.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(feed.match(/BEGIN:VEVENT/g)).toHaveLength(2);
  });
  it('writes UTC times and escaped, named summaries', () => {
    expect(feed).toContain('DTSTART:20260302T090000Z\r\nDTEND:20260309T090000Z');
    expect(feed).toContain('SUMMARY:Member A on call (Checkout\\, primary)');
  });
  it('folds lines longer than 75 octets', () => {
    const long = calendarFeed({
      scheduleId: 's1',
      scheduleName: 'x'.repeat(200),
      shifts: [],
      nameOf: String,
      generatedAt: 0,
    });
    expect(long.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
  });
});
