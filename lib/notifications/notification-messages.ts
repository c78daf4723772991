import type { Incident } from '#lib/incidents/incident.ts';
import type { IncidentNotification } from '#lib/incidents/notification-message.ts';
import type { ChatMessage } from '#lib/integrations/chat-webhook.ts';
import type { MailMessage } from '#lib/ports/mail/mail.ts';
import { chatText } from '#lib/escaping/chat.ts';
import { mailBodyLine, mailSubject } from '#lib/escaping/mail.ts';
import { smsText as smsLine } from '#lib/escaping/sms.ts';

/**
 * What every channel says of one event, written once and shaped per channel. `headline` and `details` hold
 * outside text (summaries, service names, people's names) as written: each channel escapes them for itself.
 */
export interface NotificationContent {
  headline: string;
  details: string[];
  link: string;
  meetingUrl?: string | undefined;
  /** This recipient's one-click acknowledge link, while the incident is OPEN. */
  ackUrl?: string | undefined;
}

/** The level a page reaches, when an escalation policy's (the highest of the levels it pages). */
const levelOf = ({ levels }: IncidentNotification): number | undefined =>
  levels && levels.length > 0 ? Math.max(...levels) : undefined;

const whatHappened = (notification: IncidentNotification): string => {
  const { event, priority, fromPriority, escalation } = notification;
  const level = levelOf(notification);
  switch (event) {
    case 'OPENED':
      return 'opened';
    case 'ESCALATED':
      return `escalated from ${fromPriority ?? 'a lower priority'} to ${priority}`;
    case 'RESOLVED':
      return 'resolved';
    case 'UNACKNOWLEDGED':
      return level
        ? `not acknowledged, escalated to level ${level}`
        : `not acknowledged, escalation ${escalation ?? 1}`;
    case 'ESCALATE_NOW':
      return level ? `escalated to level ${level} on request` : 'escalated on request';
    case 'RESPONSE_BREACHED':
      return 'missed its SLA response target';
    case 'RESOLVE_BREACHED':
      return 'missed its SLA resolve target';
  }
};

/** The priority is the event's: the incident may have changed again before the worker read it. */
const headlineOf = (notification: IncidentNotification, incident: Incident): string =>
  `[${notification.priority}] ${incident.id} ${whatHappened(notification)}: ${incident.summary}`;

export const notificationContent = (
  notification: IncidentNotification,
  incident: Incident,
  { appUrl, onCall, meetingUrl }: { appUrl: string; onCall: readonly string[]; meetingUrl?: string | undefined },
): NotificationContent => ({
  headline: headlineOf(notification, incident),
  details: [
    `Service: ${incident.serviceArea || 'not set'}`,
    ...(incident.environment ? [`Environment: ${incident.environment}`] : []),
    `Status: ${incident.status}`,
    ...(onCall.length > 0 ? [`On call: ${onCall.join(', ')}`] : []),
  ],
  link: `${appUrl}/incidents/${encodeURIComponent(incident.id)}`,
  meetingUrl,
});

/**
 * Slack-compatible: `text` for notifications and old clients, one mrkdwn section, and the channel to post in
 * when the workspace names one (IMS `slackChannel`; webhooks bound to one channel ignore it).
 */
export const chatMessage = (content: NotificationContent, channel?: string | null): ChatMessage => {
  const lines = [
    `*${chatText(content.headline)}*`,
    content.details.map(chatText).join(' · '),
    `<${content.link}|Open the incident>`,
    ...(content.ackUrl ? [`<${content.ackUrl}|Acknowledge>`] : []),
    ...(content.meetingUrl ? [`<${content.meetingUrl}|Join the war room>`] : []),
  ];
  return {
    text: chatText(content.headline),
    ...(channel && { channel }),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } }],
  };
};

export const mailMessage = (content: NotificationContent, to: string): MailMessage => ({
  to,
  subject: mailSubject(content.headline),
  text: [
    mailBodyLine(content.headline),
    '',
    ...content.details.map(mailBodyLine),
    '',
    `Open the incident: ${content.link}`,
    ...(content.ackUrl ? [`Acknowledge: ${content.ackUrl}`] : []),
    ...(content.meetingUrl ? [`Join the war room: ${content.meetingUrl}`] : []),
  ].join('\n'),
});

/**
 * The headline cut, then the link: one segment's worth where possible. A page that can be acknowledged
 * carries the acknowledge link instead of the incident's, since that is what a phone at night needs.
 */
export const smsText = (content: NotificationContent): string => {
  const headline = smsLine(content.headline, 100);
  return content.ackUrl ? `${headline} Ack: ${content.ackUrl}` : `${headline} ${content.link}`;
};
