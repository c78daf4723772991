/** The path a heartbeat is pinged at; the token is its only credential (docs/heartbeats.md). */
export const PING_PATH = '/api/v1/heartbeat-ping';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const TOKEN = new RegExp(`^(${ULID})\\.(${ULID})\\.([A-Za-z0-9_-]{20,100})$`);

export interface PingToken {
  workspaceId: string;
  heartbeatId: string;
  secret: string;
}

/** `<workspaceId>.<heartbeatId>.<secret>`: the ids say which item to write, the secret whether it may be. */
export const pingTokenOf = ({ workspaceId, heartbeatId, secret }: PingToken): string =>
  `${workspaceId}.${heartbeatId}.${secret}`;

/** Undefined for a value that cannot be a ping token, answered without a read. */
export const parsePingToken = (token: string): PingToken | undefined => {
  const match = TOKEN.exec(token);
  return match ? { workspaceId: match[1] ?? '', heartbeatId: match[2] ?? '', secret: match[3] ?? '' } : undefined;
};
