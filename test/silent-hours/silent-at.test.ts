import { describe, expect, it } from 'vitest';
import { silentAt, type SilentHoursRule } from '#lib/silent-hours/silent-hours.ts';

const rule = (fields: Partial<SilentHoursRule>): SilentHoursRule => ({
  id: '01J00000000000000000000000',
  name: 'Nights',
  startTime: '22:00',
  endTime: '06:00',
  timezone: 'UTC',
  daysOfWeek: [1],
  teamScope: 'payments',
  isActive: true,
  ...fields,
});

const silentAtEach = (rules: SilentHoursRule[], instants: string[], team = 'payments') =>
  instants.map((instant) => silentAt(rules, team, new Date(instant)));

describe('silentAt', () => {
  it('runs a window across midnight from the day it starts on, start inclusive, end exclusive', () => {
    // 2026-03-02 is a Monday.
    expect(
      silentAtEach(
        [rule({})],
        [
          '2026-03-02T21:59:59Z',
          '2026-03-02T22:00:00Z',
          '2026-03-03T05:59:59Z',
          '2026-03-03T06:00:00Z',
          '2026-03-03T22:30:00Z',
          '2026-03-01T23:00:00Z',
        ],
      ),
    ).toEqual([false, true, true, false, false, false]);
  });

  it('keeps a same-day window to its day, and makes equal start and end a 24-hour window', () => {
    const office = rule({ startTime: '09:00', endTime: '17:00', daysOfWeek: [1, 2, 3, 4, 5] });
    expect(silentAtEach([office], ['2026-03-06T16:59:00Z', '2026-03-06T17:00:00Z', '2026-03-07T10:00:00Z'])).toEqual([
      true,
      false,
      false,
    ]);
    const wholeDay = rule({ startTime: '00:00', endTime: '00:00', daysOfWeek: [6] });
    expect(silentAtEach([wholeDay], ['2026-03-07T00:00:00Z', '2026-03-07T23:59:59Z', '2026-03-08T00:00:00Z'])).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('reads the window on the wall clock of its zone', () => {
    const tokyo = rule({ timezone: 'Asia/Tokyo', startTime: '09:00', endTime: '10:00', daysOfWeek: [1] });
    // Monday 09:00 in Tokyo is Monday 00:00 UTC; Sunday 15:00 UTC is not a Monday in Tokyo.
    expect(silentAtEach([tokyo], ['2026-03-02T00:00:00Z', '2026-03-02T00:59:00Z', '2026-03-01T09:00:00Z'])).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('ends a night window at 06:00 summer time on the day Europe/Berlin springs forward', () => {
    // Saturday 2026-03-28 22:00 CET is 21:00 UTC; Sunday 06:00 CEST is 04:00 UTC: 7 hours, not 8.
    const nights = rule({ timezone: 'Europe/Berlin', daysOfWeek: [6] });
    expect(
      silentAtEach(
        [nights],
        ['2026-03-28T20:59:00Z', '2026-03-28T21:00:00Z', '2026-03-29T03:59:00Z', '2026-03-29T04:00:00Z'],
      ),
    ).toEqual([false, true, true, false]);
  });

  it('ends a night window at 06:00 winter time on the day Europe/Berlin falls back', () => {
    // Saturday 2026-10-24 22:00 CEST is 20:00 UTC; Sunday 06:00 CET is 05:00 UTC: 9 hours.
    const nights = rule({ timezone: 'Europe/Berlin', daysOfWeek: [6] });
    expect(
      silentAtEach(
        [nights],
        ['2026-10-24T19:59:00Z', '2026-10-24T20:00:00Z', '2026-10-25T04:59:00Z', '2026-10-25T05:00:00Z'],
      ),
    ).toEqual([false, true, true, false]);
  });

  it('starts a window whose start the jump skips at the first instant after it', () => {
    // 02:00 does not exist in Berlin on 2026-03-29: the window runs from 03:00 CEST (01:00 UTC) to 04:00 CEST.
    const early = rule({ timezone: 'Europe/Berlin', startTime: '02:00', endTime: '04:00', daysOfWeek: [7] });
    expect(
      silentAtEach(
        [early],
        ['2026-03-29T00:59:00Z', '2026-03-29T01:00:00Z', '2026-03-29T01:59:00Z', '2026-03-29T02:00:00Z'],
      ),
    ).toEqual([false, true, true, false]);
  });

  it('follows America/New_York on both change days', () => {
    const small = rule({ timezone: 'America/New_York', startTime: '01:00', endTime: '03:00', daysOfWeek: [7] });
    // 2026-03-08: 01:00 EST (06:00 UTC) to 03:00 EDT (07:00 UTC), one hour.
    expect(
      silentAtEach(
        [small],
        ['2026-03-08T05:59:00Z', '2026-03-08T06:00:00Z', '2026-03-08T06:59:00Z', '2026-03-08T07:00:00Z'],
      ),
    ).toEqual([false, true, true, false]);
    // 2026-11-01: 01:00 happens twice; the window starts at the first (EDT, 05:00 UTC) and ends 03:00 EST (08:00 UTC).
    expect(
      silentAtEach(
        [small],
        ['2026-11-01T04:59:00Z', '2026-11-01T05:00:00Z', '2026-11-01T07:59:00Z', '2026-11-01T08:00:00Z'],
      ),
    ).toEqual([false, true, true, false]);
  });

  it('silences only the rule team, every team with *, and nobody with an inactive rule', () => {
    const at = '2026-03-02T23:00:00Z';
    expect(silentAtEach([rule({})], [at], 'search')).toEqual([false]);
    expect(silentAtEach([rule({})], [at], ' Payments ')).toEqual([true]);
    expect(silentAtEach([rule({ teamScope: '*' })], [at], 'search')).toEqual([true]);
    expect(silentAtEach([rule({ isActive: false })], [at])).toEqual([false]);
    expect(silentAtEach([], [at])).toEqual([false]);
  });
});
