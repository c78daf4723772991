/** What stands in a log line where a secret was. */
const REDACTED = '[redacted]';

/**
 * Path segments after which the next segment is a credential: acknowledge links, ping URLs, invite and reset
 * links, outside addresses' confirmation links.
 */
const SECRET_AFTER = new Set([
  'ack',
  'ping',
  'pings',
  'heartbeat',
  'heartbeats',
  'invite',
  'invites',
  'reset',
  'confirm',
]);

/** A signed token of this service or a JWT: three base64url parts joined by dots. */
const SIGNED_TOKEN = /^[\w-]{8,}\.[\w-]+\.[\w-]{8,}$/;

/** Query parameters that carry credentials, compared lower-cased with `-` and `_` dropped. */
const SECRET_PARAMS = new Set([
  'token',
  'apikey',
  'key',
  'code',
  'state',
  'secret',
  'password',
  'signature',
  'accesstoken',
  'refreshtoken',
  'idtoken',
]);

const isSecretParam = (name: string): boolean => {
  const plain = name.toLowerCase().replace(/[-_]/g, '');
  return SECRET_PARAMS.has(plain) || plain.endsWith('token');
};

const redactQuery = (query: string): string =>
  query
    .split('&')
    .map((pair) => {
      const [name = '', ...value] = pair.split('=');
      return value.length > 0 && isSecretParam(decodeURIComponent(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');

/**
 * A request path (with or without its query) as a log line may show it: the tokens of acknowledge, ping,
 * invite and reset links, anything shaped like a signed token and every credential-named query parameter
 * replaced by `[redacted]` (docs/security.md, "Logs").
 */
export const redactPath = (path: string | undefined): string | undefined => {
  if (path === undefined) return undefined;
  const [pathname = '', ...rest] = path.split('?');
  const segments = pathname.split('/');
  const redacted = segments.map((segment, index) =>
    (index > 0 && SECRET_AFTER.has((segments[index - 1] ?? '').toLowerCase()) && segment !== '') ||
    SIGNED_TOKEN.test(segment)
      ? REDACTED
      : segment,
  );
  return rest.length > 0 ? `${redacted.join('/')}?${redactQuery(rest.join('?'))}` : redacted.join('/');
};
