import type { DemoClock } from './demo-clock.ts';

/** Something done through the API at a moment of the demo's week. */
type Act = () => Promise<unknown>;

/**
 * The demo's week in the order it happened. Each act runs with the service's clock at its moment (or
 * later, when the act before it ran past that moment: time never runs backwards), and the queue workers
 * settle before the next one, so correlation opens an incident at the time of the signal that opened it.
 * An act may plan more (a responder acknowledging a few minutes after a page).
 */
export interface Agenda {
  at(moment: Date, act: Act): void;
  /** Runs every act planned, those planned while it runs included; `after` runs once the workers settle after each. */
  run(after?: () => Promise<unknown>): Promise<void>;
}

export const createAgenda = (clock: DemoClock, settled: () => Promise<unknown>): Agenda => {
  const planned: { moment: number; order: number; act: Act }[] = [];
  let order = 0;
  return {
    at(moment, act) {
      planned.push({ moment: moment.getTime(), order, act });
      order += 1;
    },
    async run(after) {
      let reached = Number.NEGATIVE_INFINITY;
      while (planned.length > 0) {
        planned.sort((a, b) => a.moment - b.moment || a.order - b.order);
        const next = planned.shift();
        if (!next) break;
        clock.travelTo(new Date(Math.max(next.moment, reached)));
        await next.act();
        await settled();
        await after?.();
        reached = clock.now().getTime();
      }
    },
  };
};
