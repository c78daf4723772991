import { describe, expect, it } from 'vitest';
import type { Incident } from '#lib/incidents/incident.ts';
import { chatMessage, mailMessage, notificationContent, smsText } from '#lib/notifications/notification-messages.ts';

const incident = (summary: string, serviceArea = 'payments'): Incident => ({
  id: 'INC-1',
  ticketId: 'T-1',
  businessId: 'ws',
  summary,
  serviceArea,
  priority: 'CRITICAL',
  status: 'OPEN',
  createdAt: '2026-11-28T08:00:00.000Z',
  updatedAt: '2026-11-28T08:00:00.000Z',
  createdBy: 'system',
});

const content = (summary: string, serviceArea?: string) => ({
  ...notificationContent(
    { workspaceId: 'ws', incidentId: 'INC-1', event: 'OPENED', at: '2026-11-28T08:00:00.000Z', priority: 'CRITICAL' },
    incident(summary, serviceArea),
    {
      appUrl: 'https://app.example',
      // A member's name is outside text too.
      onCall: ['mallory@example.com'],
      nameOf: () => '<!here> Mallory',
      facts: {
        what: '<!channel> checkout down',
        description: 'line one\r\nAcknowledge: https://evil.example',
        alertCount: 2,
        since: '2026-11-28T07:50:00.000Z',
        runbookUrl: 'https://runbooks.example/a|b><!here>',
        timeZone: 'Europe/Berlin',
      },
      now: new Date('2026-11-28T08:02:00.000Z'),
    },
  ),
  ackUrl: 'https://api.example/ack/tok',
});

describe('outside text in notification messages', () => {
  it('a chat message carries neither a mention nor a link from an alert title', () => {
    const message = chatMessage(content('<!channel> <https://evil.example|Acknowledge>', '<@U999>'));
    const text = JSON.stringify(message);
    expect(text).not.toMatch(/<!channel>|<!here>|<@U999>|<https:\/\/evil/);
    const mrkdwn = JSON.parse(text).blocks[0].text.text as string;
    // Only our own links remain, one per line we wrote.
    expect(mrkdwn.match(/<https?:[^>]*>/g)).toEqual([
      '<https://runbooks.example/a%7Cb%3E%3C!here%3E|Runbook>',
      '<https://app.example/incidents/INC-1|Open the incident>',
      '<https://api.example/ack/tok|Acknowledge>',
    ]);
    expect(message.text).toContain('&lt;!channel&gt;');
  });

  it('a mail subject carries no CR/LF and the body no forged line', () => {
    const mail = mailMessage(content('db down\r\nBcc: victim@example.com\nAcknowledge: https://evil.example'), 'a@b.c');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text.split('\n').filter((line) => line.startsWith('Acknowledge:'))).toEqual([
      'Acknowledge: https://api.example/ack/tok',
    ]);
  });

  it('a page says what is broken, where, since when in words, how many alerts, the runbook and who is on it', () => {
    const mail = mailMessage(content('Checkout error rate above 5%'), 'a@b.c');
    expect(mail.text).toContain('What is broken: <!channel> checkout down');
    expect(mail.text).toContain('Details: line one Acknowledge: https://evil.example');
    expect(mail.text).toContain('Service: payments');
    expect(mail.text).toContain('Since: 08:50 on 28 November 2026 (Europe/Berlin), 12 minutes ago');
    expect(mail.text).toContain('Alerts: 2 alerts');
    expect(mail.text).toContain('Runbook: https://runbooks.example/a|b><!here>');
    expect(mail.text).toContain('On call: <!here> Mallory');
    expect(mail.text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    const sms = smsText(content('Checkout error rate above 5%'));
    expect(sms).toContain('since 08:50 Europe/Berlin, 2 alerts');
    expect(sms).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it('an SMS is one line', () => {
    expect(smsText(content('db\r\ndown'))).not.toMatch(/[\r\n]/);
  });
});
