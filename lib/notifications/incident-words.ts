import type { Incident, PageChannel } from '#lib/incidents/incident.ts';

/** An incident's status as a page says it ("The incident is …", "Status: …"), the same on every channel. */
export const STATUS_WORDS: Record<Incident['status'], string> = {
  OPEN: 'open, not acknowledged yet',
  ACKNOWLEDGED: 'acknowledged',
  INVESTIGATION: 'under investigation',
  MITIGATED: 'mitigated',
  RESOLVED: 'resolved',
  CLOSED: 'closed',
};

/** The channel a page reached someone through, as "through the link in …" says it. */
export const CHANNEL_WORDS: Record<PageChannel, string> = {
  chat: 'the chat',
  email: 'e-mail',
  sms: 'SMS',
  PUSH: 'a push notification',
};
