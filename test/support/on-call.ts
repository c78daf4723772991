import { localDate } from '#lib/contract/zoned-time.ts';
import type { SignedIn } from './accounts.ts';
import type { HttpClient } from './local-stack.ts';

const DAY_MS = 86_400_000;

/**
 * Puts `userId` on call for the whole of today and tomorrow on the workspace's calendar (its IMS time zone, UTC
 * before IMS is set up): the shifts cover now and at least the next 24 hours, whatever the hour the test runs
 * at, and a sweep a test moves the clock ahead for still finds them. A day in UTC would leave nobody on call
 * late in the evening of a zone east of it.
 */
export const onCallFromNow = async (client: HttpClient, admin: SignedIn, userId: string): Promise<void> => {
  const config = await client.request('GET', '/api/v1/ims/config', undefined, admin.auth);
  const timeZone: string = config.body?.data?.timezone ?? 'UTC';
  const now = new Date();
  for (const day of [now, new Date(now.getTime() + DAY_MS)]) {
    const shift = { userId, date: localDate(day, timeZone), startTime: '00:00', endTime: '24:00' };
    const assigned = await client.request('POST', '/api/v1/assign-member', shift, admin.auth);
    if (assigned.status !== 201) throw new Error(`assign-member answered ${assigned.status}: ${assigned.text}`);
  }
};
