import { EventEmitter, once } from 'node:events';

/**
 * How long the route functions must have had nothing to answer before the yielding consumers run again. Between
 * two requests of a steady stream the count touches zero for an instant; waking on that instant let every waiting
 * consumer in at once, and ten batches then ran beside the stream's next requests (docs/performance.md).
 */
const QUIET_MS = 100;

/**
 * The route functions answering requests now. In AWS the queue workers run in functions of their own; on one
 * machine they share its cores with the routes, so the correlation trigger keeps to one consumer while requests
 * come (docs/performance.md, "Against another commit"): a backlog's extra batches never slow a sender down.
 */
export interface RequestsInFlight {
  /** A route function started answering a request. */
  begin(): void;
  /** One that started ended, answered or failed. */
  end(): void;
  /** Whether a request is being answered, or one ended less than QUIET_MS ago. */
  busy(): boolean;
  /** Resolves at once when not busy, else once it is no longer busy or `signal` aborts. */
  none(signal: AbortSignal): Promise<void>;
  /** Resolves once no request is being answered, with no quiet period: what a stop waits for. */
  answered(): Promise<void>;
}

export const createRequestsInFlight = (): RequestsInFlight => {
  let running = 0;
  let quietTimer: NodeJS.Timeout | undefined;
  const quiet = new EventEmitter();
  quiet.setMaxListeners(0);
  const busy = () => running > 0 || quietTimer !== undefined;
  return {
    begin() {
      running += 1;
      clearTimeout(quietTimer);
      quietTimer = undefined;
    },
    end() {
      running -= 1;
      if (running > 0) return;
      quiet.emit('answered');
      quietTimer = setTimeout(() => {
        quietTimer = undefined;
        quiet.emit('quiet');
      }, QUIET_MS);
      quietTimer.unref();
    },
    busy,
    async none(signal) {
      if (!busy() || signal.aborted) return;
      // An abort ends the wait as quiet does: the caller looks at the signal next.
      await once(quiet, 'quiet', { signal }).catch(() => undefined);
    },
    async answered() {
      if (running > 0) await once(quiet, 'answered');
    },
  };
};
