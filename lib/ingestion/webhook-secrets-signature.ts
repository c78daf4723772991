import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IngestionSender } from './normalized-event.ts';

/** The senders that can prove a delivery with a shared secret, and the header each puts its proof in. */
export const SIGNATURE_HEADERS = {
  'codehost-a': 'x-hub-signature-256',
  'codehost-b': 'x-gitlab-token',
  'codehost-c': 'circleci-signature',
  paging: 'x-pagerduty-signature',
} as const satisfies Partial<Record<IngestionSender, string>>;

export type SignedSender = keyof typeof SIGNATURE_HEADERS;
export const SIGNED_SENDERS = Object.keys(SIGNATURE_HEADERS) as [SignedSender, ...SignedSender[]];

export const isSignedSender = (sender: IngestionSender): sender is SignedSender => sender in SIGNATURE_HEADERS;

const SHA256_HEX = /^[0-9a-f]{64}$/i;

const hmacOf = (secret: string, rawBody: string): Buffer =>
  createHmac('sha256', secret).update(rawBody, 'utf8').digest();

/** A hex digest against the expected bytes, in constant time; anything that is not 64 hex digits fails. */
const digestMatches = (hex: string, expected: Buffer): boolean =>
  SHA256_HEX.test(hex) && timingSafeEqual(Buffer.from(hex, 'hex'), expected);

/** `v1=<hex>[,v1=<hex>...]` (PagerDuty sends one per active secret during its rotation): any v1 that matches passes. */
const anyV1Matches = (header: string, expected: Buffer): boolean =>
  header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('v1='))
    .some((part) => digestMatches(part.slice(3), expected));

/**
 * Whether the delivery's proof matches `secret`:
 * - code host A: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`;
 * - code host B: `X-Gitlab-Token: <the secret itself>`, compared through digests so the time taken tells nothing;
 * - code host C: `circleci-signature: v1=<hex HMAC-SHA256>`; paging: `X-PagerDuty-Signature: v1=<hex>[,v1=<hex>]`.
 */
export const signatureMatches = (sender: SignedSender, header: string, rawBody: string, secret: string): boolean => {
  switch (sender) {
    case 'codehost-a': {
      const hex = /^sha256=(.*)$/.exec(header.trim())?.[1];
      return hex !== undefined && digestMatches(hex, hmacOf(secret, rawBody));
    }
    case 'codehost-b': {
      const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
      return timingSafeEqual(digest(header), digest(secret));
    }
    case 'codehost-c':
    case 'paging':
      return anyV1Matches(header, hmacOf(secret, rawBody));
  }
};
