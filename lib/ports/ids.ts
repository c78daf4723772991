import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from './clock.ts';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export interface Ids {
  /** A ULID: 26 characters that sort by creation time, so "newest first" is a key order. */
  sortable(): string;
  uuid(): string;
  /** A random, URL-safe secret of `bytes` bytes of entropy. */
  secret(bytes?: number): string;
}

const encodeTime = (ms: number): string => {
  let out = '';
  for (let i = 0; i < 10; i += 1) {
    out = CROCKFORD[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
};

/** The lowest ULID of instant `t`: its time part followed by sixteen `0`s, for "created before t" key ranges. */
export const ulidFloor = (t: Date): string => `${encodeTime(t.getTime())}${'0'.repeat(16)}`;

const encodeRandom = (bytes: Buffer): string => {
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let out = '';
  for (let i = 0; i < 16; i += 1) {
    out = CROCKFORD[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return out;
};

/**
 * Ids from the clock and node:crypto. Within one millisecond the random part is incremented rather than
 * redrawn, so ids made by one process keep their creation order (monotonic ULID).
 */
export const createIds = (clock: Clock): Ids => {
  let lastMs = -1;
  let lastRandom = 0n;
  const sortable = (): string => {
    const ms = clock.now().getTime();
    if (ms === lastMs) {
      lastRandom += 1n;
    } else {
      lastMs = ms;
      lastRandom = BigInt(`0x${randomBytes(10).toString('hex')}`);
    }
    const random = Buffer.from(lastRandom.toString(16).padStart(20, '0').slice(-20), 'hex');
    return encodeTime(ms) + encodeRandom(random);
  };
  return {
    sortable,
    uuid: () => randomUUID(),
    secret: (bytes = 32) => randomBytes(bytes).toString('base64url'),
  };
};
