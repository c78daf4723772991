import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PageChannel } from '#lib/incidents/incident.ts';
import type { NotificationEvent } from '#lib/incidents/incident-notifications.ts';
import type { SigningKeys } from '#lib/ports/signing-keys/signing-keys.ts';

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

/**
 * The MAC key is derived from the token-signing key with a purpose of its own, so a link can never pass for
 * an access token or an OAuth state (or the reverse), and no second secret has to be kept and rotated.
 */
const linkKey = (secret: Uint8Array): Buffer => createHmac('sha256', secret).update('incident-ack-link').digest();

const mac = (secret: Uint8Array, payload: string): Buffer =>
  createHmac('sha256', linkKey(secret)).update(payload).digest();

/** `<payload>.<kid>.<mac>`, all base64url, safe in a URL path. */
export const signAckLink = async (keys: SigningKeys, link: AckLink): Promise<string> => {
  const key = await keys.current();
  const short = Object.fromEntries(
    Object.entries(FIELDS).flatMap(([name, short]) => {
      const value = link[name as keyof AckLink];
      return value === undefined ? [] : [[short, value]];
    }),
  );
  const payload = Buffer.from(JSON.stringify(short)).toString('base64url');
  return `${payload}.${key.kid}.${mac(key.secret, payload).toString('base64url')}`;
};

/**
 * The link if its MAC holds under the current or the previous key; undefined for anything forged, altered or
 * malformed. Expiry and single use are the caller's to check.
 */
export const verifyAckLink = async (keys: SigningKeys, raw: string): Promise<AckLink | undefined> => {
  const [payload, kid, signature, ...rest] = raw.split('.');
  if (!payload || !kid || !signature || rest.length > 0) return undefined;
  const key = await keys.find(kid);
  if (!key) return undefined;
  const expected = mac(key.secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const short = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, string>;
    return Object.fromEntries(
      Object.entries(FIELDS).flatMap(([name, key]) => (short[key] === undefined ? [] : [[name, short[key]]])),
    ) as unknown as AckLink;
  } catch {
    return undefined;
  }
};
