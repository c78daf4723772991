import type { QueueName } from '#lib/ports/queue/queue.ts';

/**
 * The two correlation queues, both drained by the correlation worker. A group's first signal goes to
 * `correlation-first`, so a new problem opens its incident while another's flood is still being correlated
 * behind it in `correlation` (docs/correlation.md, "Two lanes"). Every function that stores signals sends to both.
 */
export const CORRELATION_LANES = ['correlation-first', 'correlation'] as const satisfies readonly QueueName[];
export type CorrelationLane = (typeof CORRELATION_LANES)[number];

export const isCorrelationLane = (queue: QueueName): queue is CorrelationLane =>
  (CORRELATION_LANES as readonly QueueName[]).includes(queue);

/**
 * A group quiet this long is news again. A flood's signals come seconds apart, so all but its first wait in
 * `correlation`; a service that pages again after five quiet minutes is likely a new problem.
 */
const QUIET_MS = 5 * 60_000;
const MAX_GROUPS = 10_000;

/**
 * When this instance last sent a signal of each group, least recent first. A group is a workspace's service, or
 * its source when the signal names none: close to the correlation rules' groups without reading them. Never trusted for correctness: both lanes correlate alike, so a cold instance,
 * or a group it forgot, costs one signal a place ahead in the line and nothing else.
 */
const lastSent = new Map<string, number>();

/** The lane of a new signal received at `receivedAt`, remembered as its group's latest. */
export const correlationLaneOf = (
  workspaceId: string,
  signal: { serviceId: string | null; source: string },
  receivedAt: Date,
): CorrelationLane => {
  const group = `${workspaceId}\u0000${signal.serviceId ?? `source:${signal.source}`}`;
  const previous = lastSent.get(group);
  const now = receivedAt.getTime();
  lastSent.delete(group);
  lastSent.set(group, now);
  if (lastSent.size > MAX_GROUPS) lastSent.delete(lastSent.keys().next().value as string);
  return previous !== undefined && Math.abs(now - previous) < QUIET_MS ? 'correlation' : 'correlation-first';
};
