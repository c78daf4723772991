import type { PageChannel } from '#lib/incidents/incident.ts';
import type { NotificationContent } from './notification-messages.ts';

/** One message to send: where, to whom as the record names them, who acknowledges through its link, and how. */
export interface PageSend {
  channel: PageChannel;
  recipient: string;
  /** The member or address (or chat channel) its acknowledge link acknowledges as. */
  ackAs: { by: string; userId?: string | undefined };
  /** An outside address that has not confirmed: the delivery is recorded UNCONFIRMED and nothing is sent. */
  unconfirmed?: boolean;
  /** Hands the message over, or throws: a throw records the delivery FAILED, and the message is tried again. */
  send(content: NotificationContent): Promise<void>;
}

/**
 * Thrown by a send whose recipient is gone for good (a push subscription its push service no longer knows): the
 * delivery is recorded FAILED with the reason, but the message is not tried again for it, since nothing would
 * change.
 */
export class RecipientGoneError extends Error {}
