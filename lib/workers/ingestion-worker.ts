import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { payloadObjects } from '#lib/ports/object-store/object-store-need.ts';
import { queueSender } from '#lib/ports/queue/queue-need.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { metrics } from '#lib/ports/metrics/metrics-need.ts';
import { CORRELATION_LANES } from '#lib/signals/correlation-lane.ts';

/** Stores queued events (it may read and write their objects), then hands the signals to correlation. */
export const ingestionWorker: FunctionDeclaration = {
  name: 'ingestion-worker',
  description: 'Stores events queued while the table refused writes',
  needs: [tableReadWrite, queueSender(...CORRELATION_LANES), payloadObjects('readWrite'), metrics],
};
