export const TICKET_TYPES = ['INCIDENT', 'PROBLEM', 'CHANGE'] as const;
export type TicketType = (typeof TICKET_TYPES)[number];

/**
 * What happened to a ticket. The spec names the first six; the rest cover the other changes a
 * person auditing a ticket needs to see.
 */
export const HISTORY_EVENTS = [
  'CREATED',
  'STATUS_CHANGE',
  'COMMENT_ADDED',
  'ASSIGNED',
  'PRIORITY_CHANGE',
  'RESOLVED',
  'FIELD_CHANGE',
  'SIGNAL_LINKED',
  'PLAYBOOK_STARTED',
  'DELETED',
  'ESCALATION',
] as const;
export type HistoryEventKind = (typeof HISTORY_EVENTS)[number];

export interface HistoryEvent {
  id: string;
  ticketId: string;
  ticketType: TicketType;
  event: HistoryEventKind;
  /** On change events: the value before and after; FIELD_CHANGE names the field in `field`. */
  from?: string | null;
  to?: string | null;
  field?: string;
  /** The user's e-mail, the API key's name, or `system`. */
  actor: string;
  /** On comment and note events. */
  message?: string;
  timestamp: string;
}

export type HistoryEventInput = Omit<HistoryEvent, 'id' | 'timestamp'>;
