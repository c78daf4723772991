/**
 * The statuses of each ticket type, and every status a ticket can have. Here, below incidents, problems and
 * changes, so that the tickets' list is derived from theirs without a capability depending back on tickets. It
 * imports nothing: the console bundles it for its status filter.
 */

/** An incident's statuses (spec: Incident ticket), in the order an incident moves through them. */
export const INCIDENT_STATUSES = ['OPEN', 'ACKNOWLEDGED', 'INVESTIGATION', 'MITIGATED', 'RESOLVED', 'CLOSED'] as const;

/** A problem's statuses (spec: Problem). */
export const PROBLEM_STATUSES = ['OPEN', 'IN_PROGRESS', 'KNOWN_ERROR', 'RESOLVED'] as const;

/** A change's statuses: its deployment's last known state. */
export const CHANGE_STATUSES = ['PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'INACTIVE'] as const;

type TicketStatus = (typeof INCIDENT_STATUSES | typeof PROBLEM_STATUSES | typeof CHANGE_STATUSES)[number];

/** Every status a ticket can have: incidents', then problems' and changes' that incidents do not have. */
export const TICKET_STATUSES: readonly TicketStatus[] = [
  ...new Set([...INCIDENT_STATUSES, ...PROBLEM_STATUSES, ...CHANGE_STATUSES]),
];
