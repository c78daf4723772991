import type { Clock } from '#lib/ports/clock.ts';

/**
 * The demo's clock. The demo replays a week that ends now: each incident, signal and response must carry
 * the time it happened, and the service stamps everything with its clock, so the seeding moves this clock
 * to each moment of the week before it acts. From the moment it is set to, it runs on at real speed, so
 * the writes of one moment keep their order.
 */
export interface DemoClock extends Clock {
  travelTo(at: Date): void;
  /** The real time again, as the service's clock reads it outside the demo. */
  backToNow(): void;
}

export const demoClock = (): DemoClock => {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    travelTo: (at) => {
      offsetMs = at.getTime() - Date.now();
    },
    backToNow: () => {
      offsetMs = 0;
    },
  };
};
