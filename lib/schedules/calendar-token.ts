import type { SigningKeys } from '#lib/ports/signing-keys/signing-keys.ts';
import { signPayload, verifyPayload } from '#lib/identity/signed-payload.ts';

/** The purpose the feed link's MAC key is derived for (lib/identity/signed-payload.ts). */
const PURPOSE = 'schedule-calendar-feed';

/**
 * What a calendar link names: the workspace, the schedule and the schedule's feed secret. The MAC makes the
 * link unguessable; the secret makes a link of a deleted schedule dead even if its id came back.
 */
export interface CalendarLink {
  workspaceId: string;
  scheduleId: string;
  feedSecret: string;
}

export const signCalendarLink = (keys: SigningKeys, link: CalendarLink): Promise<string> =>
  signPayload(keys, PURPOSE, { w: link.workspaceId, s: link.scheduleId, f: link.feedSecret });

/** The link if its MAC holds under the current or the previous key; undefined for anything forged or malformed. */
export const verifyCalendarLink = async (keys: SigningKeys, raw: string): Promise<CalendarLink | undefined> => {
  const value = await verifyPayload(keys, PURPOSE, raw);
  if (typeof value !== 'object' || value === null) return undefined;
  const { w, s, f } = value as Record<string, unknown>;
  if (typeof w !== 'string' || typeof s !== 'string' || typeof f !== 'string') return undefined;
  return { workspaceId: w, scheduleId: s, feedSecret: f };
};
