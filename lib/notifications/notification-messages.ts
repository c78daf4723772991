import type { Incident } from '#lib/incidents/incident.ts';
import type { IncidentNotification } from '#lib/incidents/incident-notifications.ts';
import type { ChatMessage } from '#lib/integrations/chat-webhook.ts';
import type { MailMessage } from '#lib/ports/mail/mail.ts';

/** What every channel says of one event, written once and shaped per channel. */
export interface NotificationContent {
  headline: string;
  details: string[];
  link: string;
  meetingUrl?: string | undefined;
}

/** The priority is the event's: the incident may have changed again before the worker read it. */
const headlineOf = ({ event, priority, fromPriority }: IncidentNotification, incident: Incident): string => {
  const what =
    event === 'OPENED'
      ? 'opened'
      : event === 'ESCALATED'
        ? `escalated from ${fromPriority ?? 'a lower priority'} to ${priority}`
        : 'resolved';
  return `[${priority}] ${incident.id} ${what}: ${incident.summary}`;
};

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
    `*${content.headline}*`,
    content.details.join(' · '),
    `<${content.link}|Open the incident>`,
    ...(content.meetingUrl ? [`<${content.meetingUrl}|Join the war room>`] : []),
  ];
  return {
    text: content.headline,
    ...(channel && { channel }),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } }],
  };
};

export const mailMessage = (content: NotificationContent, to: string): MailMessage => ({
  to,
  subject: content.headline,
  text: [
    content.headline,
    '',
    ...content.details,
    '',
    `Open the incident: ${content.link}`,
    ...(content.meetingUrl ? [`Join the war room: ${content.meetingUrl}`] : []),
  ].join('\n'),
});

/** One SMS segment's worth where possible: the headline cut, then the link. */
export const smsText = (content: NotificationContent): string => {
  const headline = content.headline.length > 100 ? `${content.headline.slice(0, 99)}…` : content.headline;
  return `${headline} ${content.link}`;
};
