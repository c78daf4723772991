import { type Incident, isDone } from '#lib/incidents/incident.ts';
import type { IncidentNotification } from '#lib/incidents/notification-message.ts';
import type { ChatMessage } from '#lib/integrations/chat-webhook.ts';
import { chatButtons } from '#lib/integrations/chat/chat-buttons.ts';
import type { MailMessage } from '#lib/ports/mail/mail.ts';
import { chatText } from '#lib/escaping/chat.ts';
import { mailBodyLine, mailSubject } from '#lib/escaping/mail.ts';
import { smsText as smsLine } from '#lib/escaping/sms.ts';
import { agoInWords, clockInWords, sinceInWords, timeOfDayInWords } from '#lib/contract/time-words.ts';
import type { PeopleNames } from '#lib/workspaces/people-names.ts';
import type { PageFacts } from './page-facts.ts';
import { CHANNEL_WORDS, STATUS_WORDS } from './incident-words.ts';

/**
 * What every channel says of one event, written once and shaped per channel. `headline` and `details` hold
 * outside text (summaries, service names, people's names) as written: each channel escapes them for itself.
 */
export interface NotificationContent {
  incidentId: string;
  headline: string;
  details: string[];
  link: string;
  /** A web address (signalDetails keeps no other), still outside text: each channel writes it safely. */
  runbookUrl?: string | undefined;
  /** What an SMS adds to the headline: since when and how many alerts. */
  smsFacts: string;
  meetingUrl?: string | undefined;
  /** This recipient's one-click acknowledge link, while the incident is OPEN. */
  ackUrl?: string | undefined;
  /** Whether the incident is still worked on (not RESOLVED or CLOSED): a chat page then carries its buttons. */
  actionable: boolean;
}

/** The level a page reaches, when an escalation policy's (the highest of the levels it pages). */
const levelOf = ({ levels }: IncidentNotification): number | undefined =>
  levels && levels.length > 0 ? Math.max(...levels) : undefined;

const whatHappened = (notification: IncidentNotification, incident: Incident, nameOf: PeopleNames): string => {
  const { event, priority, fromPriority, escalation } = notification;
  const level = levelOf(notification);
  switch (event) {
    case 'OPENED':
      return 'opened';
    case 'ACKNOWLEDGED':
      return `acknowledged by ${nameOf(incident.acknowledgedBy)}`;
    case 'PRIORITY_RAISED':
      return `priority raised from ${fromPriority ?? 'a lower one'} to ${priority}`;
    case 'RESOLVED':
      return `resolved by ${nameOf(incident.resolvedBy)}`;
    case 'ESCALATION':
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
const headlineOf = (notification: IncidentNotification, incident: Incident, nameOf: PeopleNames): string =>
  `[${notification.priority}] ${incident.id} ${whatHappened(notification, incident, nameOf)}: ${incident.summary}`;

const alertsInWords = (count: number): string => (count === 1 ? '1 alert' : `${count} alerts`);

/** Who has the incident: whoever acknowledged it, else the people paged. */
const whoIsOnIt = (
  incident: Incident,
  onCall: readonly string[],
  facts: PageFacts,
  now: Date,
  nameOf: PeopleNames,
): string[] => {
  if (incident.acknowledgedBy && incident.acknowledgedAt) {
    return [
      `On it: ${nameOf(incident.acknowledgedBy)}, acknowledged ${agoInWords(incident.acknowledgedAt, now)}, ` +
        `at ${clockInWords(incident.acknowledgedAt, facts.timeZone)}`,
    ];
  }
  return onCall.length > 0 ? [`On call: ${onCall.map(nameOf).join(', ')}`] : ['On call: nobody is on call now'];
};

/** How and why someone acted, for the news that the incident was acknowledged or resolved. */
const responseLines = (
  notification: IncidentNotification,
  incident: Incident,
  timeZone: string,
  nameOf: PeopleNames,
): string[] => {
  if (notification.event === 'ACKNOWLEDGED') {
    return [
      `How: ${incident.acknowledgedVia ? `through the acknowledge link in ${CHANNEL_WORDS[incident.acknowledgedVia]}` : 'in the console or the API'}`,
    ];
  }
  if (notification.event === 'RESOLVED' && incident.resolvedAt) {
    return [
      `Resolved: by ${nameOf(incident.resolvedBy)} at ${clockInWords(incident.resolvedAt, timeZone)}`,
      `Resolution: ${incident.resolution?.trim() || 'no note given'}`,
    ];
  }
  return [];
};

/**
 * What a page says, most telling first, so the top of a phone's screen has it: what is broken (the alert's own
 * summary and description), where, since when (how long ago, and on the workspace's clock), how many alerts,
 * and who is on it. Times are words (lib/contract/time-words.ts): nobody reads an ISO instant at 3 a.m.
 */
export const notificationContent = (
  notification: IncidentNotification,
  incident: Incident,
  {
    appUrl,
    onCall,
    meetingUrl,
    facts,
    now,
    nameOf,
  }: {
    appUrl: string;
    /** The e-mail addresses of those on call, named by `nameOf`. */
    onCall: readonly string[];
    meetingUrl?: string | undefined;
    facts: PageFacts;
    now: Date;
    nameOf: PeopleNames;
  },
): NotificationContent => ({
  incidentId: incident.id,
  headline: headlineOf(notification, incident, nameOf),
  details: [
    ...(facts.what && facts.what !== incident.summary ? [`What is broken: ${facts.what}`] : []),
    ...(facts.description ? [`Details: ${facts.description}`] : []),
    `Service: ${incident.serviceArea || 'not set'}`,
    ...(incident.environment ? [`Environment: ${incident.environment}`] : []),
    `Since: ${sinceInWords(facts.since, now, facts.timeZone).replace(/^since /, '')}`,
    ...(facts.alertCount > 0 ? [`Alerts: ${alertsInWords(facts.alertCount)}`] : []),
    `Status: ${STATUS_WORDS[incident.status]}`,
    ...responseLines(notification, incident, facts.timeZone, nameOf),
    ...(notification.event === 'ESCALATION' && incident.slaResponse === 'BREACHED'
      ? ['SLA: the response target was missed']
      : []),
    ...whoIsOnIt(incident, onCall, facts, now, nameOf),
  ],
  link: `${appUrl}/incidents/${encodeURIComponent(incident.id)}`,
  runbookUrl: facts.runbookUrl,
  smsFacts:
    `since ${timeOfDayInWords(facts.since, facts.timeZone)} ${facts.timeZone}` +
    (facts.alertCount > 1 ? `, ${alertsInWords(facts.alertCount)}` : ''),
  meetingUrl,
  actionable: !isDone(incident.status),
});

/** A sender's runbook address inside chat markup: nothing in it may close the link or start another. */
const chatUrl = (url: string): string =>
  url.replace(/[|<>& ]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Slack-compatible: `text` for notifications and old clients, one mrkdwn section, and the channel to post in
 * when the workspace names one (IMS `slackChannel`; webhooks bound to one channel ignore it).
 */
export const chatMessage = (content: NotificationContent, channel?: string | null): ChatMessage => {
  const lines = [
    `*${chatText(content.headline)}*`,
    content.details.map(chatText).join(' · '),
    ...(content.runbookUrl ? [`<${chatUrl(content.runbookUrl)}|Runbook>`] : []),
    `<${content.link}|Open the incident>`,
    ...(content.ackUrl ? [`<${content.ackUrl}|Acknowledge>`] : []),
    ...(content.meetingUrl ? [`<${content.meetingUrl}|Join the war room>`] : []),
  ];
  return {
    text: chatText(content.headline),
    ...(channel && { channel }),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
      ...(content.actionable ? [chatButtons(content.incidentId)] : []),
    ],
  };
};

export const mailMessage = (content: NotificationContent, to: string): MailMessage => ({
  to,
  subject: mailSubject(content.headline),
  text: [
    mailBodyLine(content.headline),
    '',
    ...content.details.map(mailBodyLine),
    ...(content.runbookUrl ? [`Runbook: ${mailBodyLine(content.runbookUrl)}`] : []),
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
  const headline = `${smsLine(content.headline, 100)} (${content.smsFacts})`;
  return content.ackUrl ? `${headline} Ack: ${content.ackUrl}` : `${headline} ${content.link}`;
};
