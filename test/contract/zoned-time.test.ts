import { describe, expect, it } from 'vitest';
import { localDate, localDateTime, offsetAt, offsetText, zonedTimeToUtc } from '#lib/contract/zoned-time.ts';

describe('zoned time', () => {
  it('reads wall clocks and offsets east and west of UTC, half and quarter hours included', () => {
    const instant = Date.parse('2026-03-01T12:00:00Z');
    expect(localDateTime(instant, 'Asia/Kolkata')).toBe('2026-03-01T17:30:00');
    expect(offsetText(offsetAt('Asia/Kathmandu', instant))).toBe('+05:45');
    expect(offsetText(offsetAt('America/Sao_Paulo', instant))).toBe('-03:00');
    expect(offsetText(offsetAt('UTC', instant))).toBe('+00:00');
    expect(localDate(new Date('2026-03-01T23:30:00Z'), 'Europe/Berlin')).toBe('2026-03-02');
  });

  it('turns a local time into its instant, across both clock changes as Temporal does by default', () => {
    expect(zonedTimeToUtc('2026-07-01', '09:00', 'Europe/Berlin').toISOString()).toBe('2026-07-01T07:00:00.000Z');
    // 02:30 does not exist on the night clocks jump forward: moved forward by the jump.
    expect(zonedTimeToUtc('2026-03-29', '02:30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    // 02:30 occurs twice on the night clocks fall back: the earlier one.
    expect(zonedTimeToUtc('2026-10-25', '02:30', 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(zonedTimeToUtc('2026-07-01', '24:00', 'UTC').toISOString()).toBe('2026-07-02T00:00:00.000Z');
  });
});
