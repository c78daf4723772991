import { EventEmitter } from 'node:events';

/**
 * The route functions answering requests now. In AWS the queue workers run in functions of their own; on one
 * machine they share its cores with the routes, so the correlation trigger keeps to one consumer while a request is
 * answered (docs/performance.md, "Workers that yield"): a backlog's extra batches never slow a sender down.
 */
export interface RequestsInFlight {
  /** Counts one request until the returned function is called. */
  begin(): () => void;
  /** Whether a request is being answered. */
  busy(): boolean;
  /** Resolves at once when no request is answered, else when the last one ends or `signal` aborts. */
  none(signal: AbortSignal): Promise<void>;
}

export const createRequestsInFlight = (): RequestsInFlight => {
  let running = 0;
  const ended = new EventEmitter();
  ended.setMaxListeners(0);
  return {
    begin() {
      running += 1;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        running -= 1;
        if (running === 0) ended.emit('none');
      };
    },
    busy: () => running > 0,
    async none(signal) {
      if (running === 0 || signal.aborted) return;
      await new Promise<void>((resolve) => {
        const wake = () => {
          ended.off('none', wake);
          signal.removeEventListener('abort', wake);
          resolve();
        };
        ended.on('none', wake);
        signal.addEventListener('abort', wake);
      });
    },
  };
};
