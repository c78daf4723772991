import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openKeptMessages } from '#infra/local/kept-messages.ts';
import { openMailbox } from '#infra/local/mailbox.ts';
import { openSmsOutbox } from '#infra/local/sms-outbox.ts';
import { systemClock } from '#lib/ports/clock.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kept-messages-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const linesOf = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean).length;

it('keeps the newest messages, in memory and across a restart, and the file within twice the limit', async () => {
  const file = join(dir, 'kept.jsonl');
  const kept = await openKeptMessages<{ n: number }>(file, 3);
  for (let n = 1; n <= 10; n += 1) {
    await kept.add({ n });
    expect(await linesOf(file)).toBeLessThanOrEqual(6);
  }

  expect(kept.newestFirst(() => true)).toEqual([{ n: 10 }, { n: 9 }, { n: 8 }]);
  expect(kept.newestFirst(({ n }) => n % 2 === 0)).toEqual([{ n: 10 }, { n: 8 }]);
  const reopened = await openKeptMessages<{ n: number }>(file, 3);
  expect(reopened.newestFirst(() => true)).toEqual([{ n: 10 }, { n: 9 }, { n: 8 }]);
});

it('keeps every message written at once, in order', async () => {
  const file = join(dir, 'kept.jsonl');
  const kept = await openKeptMessages<{ n: number }>(file, 4);
  await Promise.all(Array.from({ length: 20 }, (_, n) => kept.add({ n })));

  const reopened = await openKeptMessages<{ n: number }>(file, 4);
  expect(reopened.newestFirst(() => true)).toEqual([{ n: 19 }, { n: 18 }, { n: 17 }, { n: 16 }]);
});

it('bounds the mailbox and the SMS outbox to their newest messages', async () => {
  const mailbox = await openMailbox(systemClock, undefined, 2);
  const sms = await openSmsOutbox(systemClock, undefined, 2);
  for (const subject of ['one', 'two', 'three']) {
    await mailbox.deliver({ to: 'Ops@Example.com', subject, text: subject });
    await sms.send({ to: '+15550100', text: subject });
  }

  expect(mailbox.messagesTo('ops@example.com').map((mail) => mail.subject)).toEqual(['three', 'two']);
  expect(sms.messagesTo('+15550100').map((message) => message.text)).toEqual(['three', 'two']);
});
