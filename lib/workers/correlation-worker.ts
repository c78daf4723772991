import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { metrics } from '#lib/ports/metrics/metrics-need.ts';
import { queueSender } from '#lib/ports/queue/queue-need.ts';

export const correlationWorker: FunctionDeclaration = {
  name: 'correlation-worker',
  description: 'Correlates stored signals into incidents',
  needs: [tableReadWrite, metrics, queueSender('notifications')],
};
