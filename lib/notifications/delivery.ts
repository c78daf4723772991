import type { NotificationEvent } from '#lib/incidents/notification-events.ts';
import type { PageChannel } from '#lib/incidents/incident.ts';

/**
 * SENT: handed over (chat answered 2xx, the e-mail is on the mail outbox, SNS took the SMS); MUTED: silent hours;
 * UNCONFIRMED: an outside address that has not confirmed yet, sent nothing (docs/security.md).
 */
export const DELIVERY_STATUSES = ['SENT', 'FAILED', 'MUTED', 'UNCONFIRMED'] as const;
type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryAttempt {
  at: string;
  outcome: DeliveryStatus;
  /** Why it failed, was muted or was held. */
  detail?: string;
}

/**
 * One notification of one incident event to one recipient on one channel, with every attempt made. The
 * worker sends a delivery again only while it is FAILED, so a retried message reaches no one twice.
 */
export interface Delivery {
  incidentId: string;
  event: NotificationEvent;
  /** The event's time; with the event it names the occurrence. */
  eventAt: string;
  channel: PageChannel;
  /** The channel's name, the e-mail address, or the phone number with all but its last four digits hidden. */
  recipient: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** The war-room meeting the message carried, when the video tool is connected. */
  meetingUrl?: string;
  /** When the incident was acknowledged through this delivery's link (by its recipient, on its channel). */
  acknowledgedAt?: string;
  createdAt: string;
  updatedAt: string;
}

export const maskPhone = (phone: string): string =>
  `${phone.slice(0, 3)}${'•'.repeat(Math.max(0, phone.length - 7))}${phone.slice(-4)}`;
