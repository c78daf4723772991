import { describe, expect, it } from 'vitest';
import { chatText } from '#lib/escaping/chat.ts';
import { escapeHtml } from '#lib/escaping/html.ts';
import { MAIL_SUBJECT_MAX, mailBodyLine, mailSubject } from '#lib/escaping/mail.ts';
import { smsText } from '#lib/escaping/sms.ts';

const HOSTILE = [
  '<!channel> <https://evil.example/ack|Acknowledge>',
  '<!here> & <@U012345> <#C0123|general> <!subteam^S1>',
  'db down\r\nBcc: victim@example.com\r\n\r\nAcknowledge: https://evil.example',
  'ok\u2028forged\u202eline\u0000\u001b[31m',
  '<script>alert(1)</script> "quoted" \'single\'',
];

describe('chat markup', () => {
  it('leaves no mention, link or raw markup bracket in outside text', () => {
    for (const text of HOSTILE) {
      const escaped = chatText(text);
      expect(escaped).not.toMatch(/[<>\r\n]/);
      expect(escaped.replace(/&(?:amp|lt|gt);/g, '')).not.toContain('&');
    }
    expect(chatText('<!channel> <https://evil.example|Acknowledge>')).toBe(
      '&lt;!channel&gt; &lt;https://evil.example|Acknowledge&gt;',
    );
    expect(chatText('a & b')).toBe('a &amp; b');
  });
});

describe('SMS', () => {
  it('is one line of plain text, capped', () => {
    expect(smsText('db\r\ndown\u0007 now', 50)).toBe('db down now');
    expect(smsText('x'.repeat(200), 100)).toHaveLength(100);
    for (const text of HOSTILE) expect(smsText(text, 160)).not.toMatch(/[\p{Cc}\u2028\u2029\u202e]/u);
  });
});

describe('mail', () => {
  it('subject carries no control character and is length-capped', () => {
    for (const text of HOSTILE) expect(mailSubject(text)).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
    expect(mailSubject('db down\r\nBcc: victim@example.com')).toBe('db down Bcc: victim@example.com');
    const long = mailSubject(`${'y'.repeat(500)}\r\n`);
    expect(long.length).toBe(MAIL_SUBJECT_MAX);
    expect(long.endsWith('…')).toBe(true);
  });

  it('a body line cannot add lines of its own', () => {
    expect(mailBodyLine('a\nAcknowledge: https://evil.example')).toBe('a Acknowledge: https://evil.example');
  });
});

describe('HTML', () => {
  it('escapes markup and quotes', () => {
    expect(escapeHtml('<script>alert("x")</script> & \'')).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;',
    );
  });
});
