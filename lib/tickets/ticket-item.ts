import { workspaceKey } from '#lib/store/keys.ts';
import type { TicketType } from './history.ts';

/** The unified ticket list's partition, shared by incidents, problems and changes (gsi3, newest first). */
export const ticketListPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'TICKET');

/** The gsi3 attributes that put a ticket item in the unified list; every ticket item's `toItem` spreads them. */
export const ticketIndexKeys = (workspaceId: string, ticket: { id: string; createdAt: string }) => ({
  gsi3pk: ticketListPartition(workspaceId),
  gsi3sk: `${ticket.createdAt}#${ticket.id}`,
});

export interface Ticket {
  id: string;
  type: TicketType;
  summary: string;
  priority: string | null;
  status: string;
  assignedTo: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A ticket item as the unified list shows it; its item `type` is the ticket type. */
export const ticketFromItem = (item: Record<string, unknown>): Ticket => ({
  id: item.id as string,
  type: item.type as TicketType,
  summary: (item.summary ?? item.title) as string,
  priority: (item.priority as string | undefined) ?? null,
  status: item.status as string,
  assignedTo: (item.assignedToEmail as string | undefined) ?? null,
  createdAt: item.createdAt as string,
  updatedAt: (item.updatedAt ?? item.createdAt) as string,
});
