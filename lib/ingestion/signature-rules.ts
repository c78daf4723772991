import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** A delivery as a rule reads its proof from it: lower-cased headers and the parsed body. */
export interface ProvenDelivery {
  headers: Record<string, string>;
  body: unknown;
}

/**
 * How a sender proves a delivery with the secret a workspace shares with it. The proof may travel in a header
 * (an HMAC of the raw body, the secret itself, `Authorization: GenieKey <key>`) or in the body (a routing key):
 * a rule says where it is, whether it matches, and how a sender holding the secret sends it.
 */
export interface SignatureRule {
  /** Where the proof travels, as the secrets API (`signatureHeader`) and the 401's field messages name it. */
  location: string;
  /** The proof the delivery carries, or undefined when it carries none. */
  proofOf: (delivery: ProvenDelivery) => string | undefined;
  /** Whether the proof matches `secret` for these body bytes, in constant time. */
  matches: (proof: string, rawBody: string, secret: string) => boolean;
  /** The request a sender holding `secret` makes of an unsigned body (the tests and the demo post with it). */
  sign: (rawBody: string, secret: string) => { rawBody: string; headers: Record<string, string> };
}

const SHA256_HEX = /^[0-9a-f]{64}$/i;

const hmacOf = (secret: string, rawBody: string): Buffer =>
  createHmac('sha256', secret).update(rawBody, 'utf8').digest();

const hmacHex = (secret: string, rawBody: string): string => hmacOf(secret, rawBody).toString('hex');

/** A hex digest against the expected bytes, in constant time; anything that is not 64 hex digits fails. */
const digestMatches = (hex: string, expected: Buffer): boolean =>
  SHA256_HEX.test(hex) && timingSafeEqual(Buffer.from(hex, 'hex'), expected);

const sha256 = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Two secrets compared through their digests, so the time taken tells nothing of either, their lengths included. */
export const sameSecret = (given: string, secret: string): boolean => timingSafeEqual(sha256(given), sha256(secret));

const inHeader = (header: string) => ({
  location: header,
  proofOf: ({ headers }: ProvenDelivery) => headers[header] || undefined,
});

/** `<header>: sha256=<hex HMAC-SHA256 of the raw body>` (code host A's `X-Hub-Signature-256`). */
export const hmacSha256Header = (header: string): SignatureRule => ({
  ...inHeader(header),
  matches: (proof, rawBody, secret) => {
    const hex = /^sha256=(.*)$/.exec(proof.trim())?.[1];
    return hex !== undefined && digestMatches(hex, hmacOf(secret, rawBody));
  },
  sign: (rawBody, secret) => ({ rawBody, headers: { [header]: `sha256=${hmacHex(secret, rawBody)}` } }),
});

/**
 * `<header>: v1=<hex HMAC-SHA256>[,v1=<hex>...]` (PagerDuty sends one per active secret during its rotation):
 * any v1 that matches passes.
 */
export const v1HmacHeader = (header: string): SignatureRule => ({
  ...inHeader(header),
  matches: (proof, rawBody, secret) => {
    const expected = hmacOf(secret, rawBody);
    return proof
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part.startsWith('v1='))
      .some((part) => digestMatches(part.slice(3), expected));
  },
  sign: (rawBody, secret) => ({ rawBody, headers: { [header]: `v1=${hmacHex(secret, rawBody)}` } }),
});

/** `<header>: <the secret itself>` (code host B's `X-Gitlab-Token`): it proves the sender, not the body. */
export const secretHeader = (header: string): SignatureRule => ({
  ...inHeader(header),
  matches: (proof, _rawBody, secret) => sameSecret(proof, secret),
  sign: (rawBody, secret) => ({ rawBody, headers: { [header]: secret } }),
});
