import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { queueSender } from '#lib/ports/queue/queue-need.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';

export const correlationSweep: FunctionDeclaration = {
  name: 'correlation-sweep',
  description: 'Re-queues signals whose correlation message was lost',
  needs: [tableReadWrite, queueSender('correlation')],
};
