import * as z from 'zod/mini';
import { INCIDENT_PRIORITIES } from '#lib/incidents/incident.ts';
import { HEARTBEAT_STATES, MAX_GRACE_SECONDS, MAX_INTERVAL_SECONDS, MIN_INTERVAL_SECONDS } from './heartbeat.ts';

const seconds = (min: number, max: number) =>
  z
    .number()
    .check(z.int('must be whole seconds'), z.gte(min, `must be at least ${min}`), z.lte(max, `must be at most ${max}`));

/**
 * Create and replace take the same fields: a PUT leaves nothing of the old ones but the ping URL, the
 * last ping and an open outage. Pausing is `paused: true` on a PUT.
 */
export const heartbeatBody = z.object({
  name: z
    .string()
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters')),
  intervalSeconds: seconds(MIN_INTERVAL_SECONDS, MAX_INTERVAL_SECONDS).check(
    z.describe('How often a ping is expected: 60 seconds to 7 days'),
  ),
  graceSeconds: z._default(
    seconds(0, MAX_GRACE_SECONDS).check(z.describe('How long a ping may be late (LATE) before it is missed (DOWN)')),
    0,
  ),
  serviceId: z.optional(
    z.nullable(
      z
        .string()
        .check(
          z.trim(),
          z.minLength(1, 'must not be empty'),
          z.maxLength(200, 'must be at most 200 characters'),
          z.describe("The service a missed ping's signal names, so the service's correlation and escalation apply"),
        ),
    ),
  ),
  priority: z._default(
    z.enum(INCIDENT_PRIORITIES).check(z.describe('HIGH and CRITICAL raise a HIGH signal; MEDIUM and LOW their own')),
    'HIGH',
  ),
  paused: z._default(z.boolean().check(z.describe('A paused heartbeat is never missed')), false),
});
export type HeartbeatInput = z.output<typeof heartbeatBody>;

/** Any string: a value that is not a heartbeat id is simply not found (404). */
export const heartbeatIdParams = z.object({ id: z.string().check(z.minLength(1)) });

/** The ping URL's last segment; its form is checked by the ping itself (a 404 for any token it does not know). */
export const pingTokenParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(200)) });

const heartbeatView = z.object({
  id: z.string(),
  name: z.string(),
  intervalSeconds: z.number(),
  graceSeconds: z.number(),
  serviceId: z.nullable(z.string()),
  priority: z.enum(INCIDENT_PRIORITIES),
  paused: z.boolean(),
  state: z.enum(HEARTBEAT_STATES),
  lastPingAt: z.nullable(z.string()),
  nextPingDueAt: z.string().check(z.describe('When the next ping is expected (the grace runs after it)')),
  downSince: z.nullable(
    z.string().check(z.describe('When the sweep raised the missed heartbeat, until a ping ends it')),
  ),
  pingUrl: z.string().check(z.describe('GET or POST it, with no other credential: a secret, like a password')),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type HeartbeatView = z.output<typeof heartbeatView>;

export const heartbeatResponse = heartbeatView;
export const heartbeatsResponse = z.object({ heartbeats: z.array(heartbeatView) });
export const deletedHeartbeatResponse = z.object({ id: z.string() });
export const pingResponse = z.object({
  id: z.string(),
  name: z.string(),
  lastPingAt: z.string(),
  state: z.enum(HEARTBEAT_STATES),
});
