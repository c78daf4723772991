/**
 * The statuses of each ticket type. Here, below incidents, problems and changes, so that the tickets' list of every
 * status (tickets/schemas.ts) is derived from theirs without a capability depending back on tickets. It imports
 * nothing and holds only lists: the console bundles it through incident.ts, and a bundle drops what it does not use.
 */

/** An incident's statuses (spec: Incident ticket), in the order an incident moves through them. */
export const INCIDENT_STATUSES = ['OPEN', 'ACKNOWLEDGED', 'INVESTIGATION', 'MITIGATED', 'RESOLVED', 'CLOSED'] as const;

/** A problem's statuses (spec: Problem). */
export const PROBLEM_STATUSES = ['OPEN', 'IN_PROGRESS', 'KNOWN_ERROR', 'RESOLVED'] as const;

/** A change's statuses: its deployment's last known state. */
export const CHANGE_STATUSES = ['PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'INACTIVE'] as const;
