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
    { appUrl: 'https://app.example', onCall: ['<!here> Mallory'] },
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

  it('an SMS is one line', () => {
    expect(smsText(content('db\r\ndown'))).not.toMatch(/[\r\n]/);
  });
});
