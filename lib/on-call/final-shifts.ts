import { layerShifts, type ScheduleLayer, type Span } from './rotation.ts';

/**
 * A schedule's final shifts: its layers stacked (a later layer wins where it covers), overrides on top of
 * everything. Pure, so the scenarios test it without a store.
 */
export interface ScheduleOverride extends Span {
  id: string;
  userId: string;
}

export interface FinalShift extends Span {
  userId: string;
  /** What put the member there: the index of the winning layer, or the override. */
  source: { type: 'layer'; layer: number } | { type: 'override'; overrideId: string };
}

interface ScheduleShape {
  timezone: string;
  layers: ScheduleLayer[];
}

const sameSource = (a: FinalShift['source'], b: FinalShift['source']): boolean =>
  a.type === 'layer'
    ? b.type === 'layer' && a.layer === b.layer
    : b.type === 'override' && a.overrideId === b.overrideId;

/** Final shifts overlapping a window, in time order, adjacent pieces of one member from one source merged. */
export const finalShifts = (schedule: ScheduleShape, overrides: ScheduleOverride[], window: Span): FinalShift[] => {
  const candidates: FinalShift[] = [];
  schedule.layers.forEach((layer, index) => {
    for (const shift of layerShifts(layer, schedule.timezone, window)) {
      candidates.push({ ...shift, source: { type: 'layer', layer: index } });
    }
  });
  for (const override of overrides) {
    const start = Math.max(override.start, window.start);
    const end = Math.min(override.end, window.end);
    if (start < end)
      candidates.push({ userId: override.userId, start, end, source: { type: 'override', overrideId: override.id } });
  }
  const rank = (shift: FinalShift): number =>
    shift.source.type === 'override' ? Number.MAX_SAFE_INTEGER : shift.source.layer;
  const cuts = [...new Set(candidates.flatMap((shift) => [shift.start, shift.end]))].sort((a, b) => a - b);
  const result: FinalShift[] = [];
  for (let i = 0; i + 1 < cuts.length; i += 1) {
    const start = cuts[i] as number;
    const end = cuts[i + 1] as number;
    let winner: FinalShift | undefined;
    for (const shift of candidates) {
      if (shift.start <= start && shift.end >= end && (!winner || rank(shift) >= rank(winner))) winner = shift;
    }
    if (!winner) continue;
    const previous = result.at(-1);
    if (
      previous &&
      previous.end === start &&
      previous.userId === winner.userId &&
      sameSource(previous.source, winner.source)
    ) {
      previous.end = end;
    } else {
      result.push({ userId: winner.userId, start, end, source: winner.source });
    }
  }
  return result;
};

/** How far around an instant the shift containing it is looked for: the longest turn a layer may have. */
const LOOK_AROUND_MS = 60 * 24 * 3_600_000;

/** The window `onCallAt` reads around an instant: the overrides it needs are those overlapping it. */
export const lookAround = (at: number): Span => ({ start: at - LOOK_AROUND_MS, end: at + LOOK_AROUND_MS });

/** The final shift covering an instant (its whole extent, up to the look-around), or undefined when nobody is. */
export const onCallAt = (schedule: ScheduleShape, overrides: ScheduleOverride[], at: number): FinalShift | undefined =>
  finalShifts(schedule, overrides, lookAround(at)).find((shift) => shift.start <= at && at < shift.end);

/** The final shift after the one covering an instant (or the first one starting after it): "next on call". */
export const nextOnCall = (
  schedule: ScheduleShape,
  overrides: ScheduleOverride[],
  at: number,
): FinalShift | undefined =>
  finalShifts(schedule, overrides, { start: at, end: at + LOOK_AROUND_MS }).find((shift) => shift.start > at);
