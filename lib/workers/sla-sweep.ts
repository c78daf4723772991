import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { queueSender } from '#lib/ports/queue/queue-need.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';

/** How often the sweep runs: a breach is recorded at most this late after its deadline. */
export const SLA_SWEEP_MINUTES = 5;

export const slaSweep: FunctionDeclaration = {
  name: 'sla-sweep',
  description: 'Records SLA breaches of incidents whose deadlines passed and escalates unacknowledged incidents',
  needs: [tableReadWrite, queueSender('notifications')],
};
