import { setTimeout as delay } from 'node:timers/promises';
import type { HttpClient } from './local-stack.ts';

/** Where an outside address's confirmation link points, below the API. */
export const CONFIRM = '/api/v1/business/outside-addresses/confirm';

interface Mail {
  subject: string;
  text: string;
  token?: string;
}

/** The confirmation mails sent to `address`, newest first. */
export const confirmationMailsTo = async (client: HttpClient, address: string): Promise<Mail[]> =>
  ((await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(address)}`)).body.data as Mail[]).filter(
    ({ subject }) => subject.includes('asks to send incident alerts'),
  );

/** Confirms `address` as its owner would, through the newest confirmation mail's link: the button's POST. */
export const confirmOutsideAddress = async (client: HttpClient, address: string): Promise<void> => {
  // The mail worker takes it off the outbox on its own: a few polls at most.
  let [mail] = await confirmationMailsTo(client, address);
  for (let poll = 0; !mail && poll < 100; poll += 1) {
    await delay(20);
    [mail] = await confirmationMailsTo(client, address);
  }
  if (!mail?.token) throw new Error(`no confirmation mail was sent to ${address}`);
  const reply = await client.request('POST', `${CONFIRM}/${mail.token}`);
  if (reply.status !== 200) throw new Error(`confirming ${address}: ${reply.status} ${reply.text}`);
};
