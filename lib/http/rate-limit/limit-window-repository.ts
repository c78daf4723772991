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
export const reserveHits = async (
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
