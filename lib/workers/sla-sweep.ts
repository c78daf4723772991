import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { queueSender } from '#lib/ports/queue/queue-need.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';

/**
 * How often the sweep runs by default (CDK context `slaSweepMinutes`, locally `SLA_SWEEP_SECONDS`): a breach is
 * recorded, and an escalation sent, at most this late after its deadline. A minute, since escalation is
 * about minutes; a run that finds nothing due is one query per workspace.
 */
export const SLA_SWEEP_MINUTES = 1;

export const slaSweep: FunctionDeclaration = {
  name: 'sla-sweep',
  description: 'Records SLA breaches of incidents whose deadlines passed and escalates unacknowledged incidents',
  needs: [tableReadWrite, queueSender('notifications')],
};
