import { limiterKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';
import type { LimitWindow, LimiterName } from '#lib/ports/rate-limits.ts';
import { updateIf } from '#lib/store/conditional-writes.ts';

export interface LimitOutcome {
  limiter: LimiterName;
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the count starts again. */
  resetSeconds: number;
}

/** Expired windows are never addressed again (their start is in the key); the TTL only clears them away. */
const TTL_GRACE_SECONDS = 60;

/**
 * Reserves `hits` in the current fixed window with a single conditional ADD, so the count holds across
 * any number of Lambda instances; a reservation that would pass the limit is refused whole. Answers the
 * window's count after the reservation, or undefined when refused.
 */
const reserveHits = async (
  table: Table,
  limiter: LimiterName,
  subject: string,
  { limit }: LimitWindow,
  windowStart: number,
  windowEnd: number,
  hits: number,
): Promise<number | undefined> => {
  const window = await updateIf(
    table,
    { pk: limiterKey(limiter, subject, windowStart), sk: 'WINDOW' },
    {
      UpdateExpression: 'ADD hits :hits SET #ttl = if_not_exists(#ttl, :ttl)',
      ConditionExpression: 'attribute_not_exists(hits) OR hits <= :room',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':hits': hits, ':room': limit - hits, ':ttl': windowEnd + TTL_GRACE_SECONDS },
    },
  );
  return window ? Number(window.hits ?? limit) : undefined;
};

/** A share of a window's hits this Lambda instance reserved and has not used yet. */
interface Lease {
  windowStart: number;
  /** The window's count in the table after this instance's last reservation. */
  counted: number;
  left: number;
}

/** At most this many hits are reserved at once, and at most a twentieth of what the window has left. */
const MAX_LEASE = 10;
const LEASE_SHARE = 20;
/** Leases of past windows are dropped once this many subjects are held. */
const MAX_LEASES = 10_000;

/** Per table, so two local stacks in one process never share a lease. */
const leasesByTable = new WeakMap<Table, Map<string, Lease>>();

const leaseSize = (limit: number, counted: number): number =>
  Math.max(1, Math.min(MAX_LEASE, Math.floor((limit - counted) / LEASE_SHARE)));

const dropPastWindows = (leases: Map<string, Lease>, windowStart: number): void => {
  if (leases.size < MAX_LEASES) return;
  for (const [key, lease] of leases) if (lease.windowStart < windowStart) leases.delete(key);
};

/**
 * Counts one request against a limiter without a table write for each: an instance reserves a few hits
 * of the window at once (one conditional ADD) and serves the next requests of that subject from them.
 * The lease is a twentieth of what the window has left, at most 10, so a busy client costs a write per
 * ~10 requests, a small limit (login's 10, a test's 6) is counted exactly, and what other instances
 * hold unused can only refuse a client slightly early, never admit one past the limit.
 */
export const countRequest = async (
  table: Table,
  limiter: LimiterName,
  subject: string,
  window: LimitWindow,
  now: Date,
): Promise<LimitOutcome> => {
  const { limit, windowSeconds } = window;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % windowSeconds);
  const windowEnd = windowStart + windowSeconds;
  const resetSeconds = windowEnd - nowSeconds;
  const leases = leasesByTable.get(table) ?? new Map<string, Lease>();
  leasesByTable.set(table, leases);
  const key = `${limiter}#${subject}`;
  const held = leases.get(key);
  const lease = held && held.windowStart === windowStart ? held : undefined;
  if (lease && lease.left > 0) {
    lease.left -= 1;
    return { limiter, allowed: true, limit, remaining: limit - lease.counted + lease.left, resetSeconds };
  }

  const size = leaseSize(limit, lease?.counted ?? 0);
  const reserve = (hits: number) => reserveHits(table, limiter, subject, window, windowStart, windowEnd, hits);
  let granted = size;
  let counted = await reserve(size);
  if (counted === undefined && size > 1) {
    granted = 1;
    counted = await reserve(1);
  }
  if (counted === undefined) return { limiter, allowed: false, limit, remaining: 0, resetSeconds };
  dropPastWindows(leases, windowStart);
  leases.set(key, { windowStart, counted, left: granted - 1 });
  return { limiter, allowed: true, limit, remaining: Math.max(0, limit - counted + granted - 1), resetSeconds };
};

const expandIpv6 = (ip: string): string[] => {
  if (!ip.includes('::')) return ip.split(':');
  const [head = '', tail = ''] = ip.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  return [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
};

/** A client is its address; IPv6 clients by their /64, since one host commonly holds a whole /64. */
export const clientSubject = (sourceIp: string): string =>
  sourceIp.includes(':') ? `${expandIpv6(sourceIp).slice(0, 4).join(':')}::/64` : sourceIp;
