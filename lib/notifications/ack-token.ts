import type { PageChannel } from '#lib/incidents/incident.ts';
import type { NotificationEvent } from '#lib/incidents/notification-events.ts';
import type { SigningKeys } from '#lib/ports/signing-keys/signing-keys.ts';
import { signPayload, verifyPayload } from '#lib/identity/signed-payload.ts';

/** How long a page's acknowledge link works: a day covers a night's pages and a morning's reading. */
export const ACK_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * What an acknowledge link names: the incident, who acknowledges through it (`by`: a member's or the alert
 * address's e-mail, or the chat channel) and the delivery that carried it, so the notifications list can show
 * which page was acknowledged. `linkId` is what makes it single-use.
 */
export interface AckLink {
  linkId: string;
  workspaceId: string;
  incidentId: string;
  by: string;
  userId?: string;
  channel: PageChannel;
  recipient: string;
  event: NotificationEvent;
  eventAt: string;
  expiresAt: string;
}

/** Short member names keep the link short enough for an SMS. */
const FIELDS = {
  linkId: 'n',
  workspaceId: 'w',
  incidentId: 'i',
  by: 'b',
  userId: 'u',
  channel: 'c',
  recipient: 'r',
  event: 'e',
  eventAt: 't',
  expiresAt: 'x',
} as const satisfies Record<keyof AckLink, string>;

/** The purpose the link's MAC key is derived for (lib/identity/signed-payload.ts). */
const PURPOSE = 'incident-ack-link';

/** `<payload>.<kid>.<mac>`, all base64url, safe in a URL path. */
export const signAckLink = (keys: SigningKeys, link: AckLink): Promise<string> =>
  signPayload(
    keys,
    PURPOSE,
    Object.fromEntries(
      Object.entries(FIELDS).flatMap(([name, short]) => {
        const value = link[name as keyof AckLink];
        return value === undefined ? [] : [[short, value]];
      }),
    ),
  );

/**
 * The link if its MAC holds under the current or the previous key; undefined for anything forged, altered or
 * malformed. Expiry and single use are the caller's to check.
 */
export const verifyAckLink = async (keys: SigningKeys, raw: string): Promise<AckLink | undefined> => {
  const short = await verifyPayload(keys, PURPOSE, raw);
  if (typeof short !== 'object' || short === null) return undefined;
  const fields = short as Record<string, string>;
  return Object.fromEntries(
    Object.entries(FIELDS).flatMap(([name, key]) => (fields[key] === undefined ? [] : [[name, fields[key]]])),
  ) as unknown as AckLink;
};
