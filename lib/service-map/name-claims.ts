import { ConflictError } from '#lib/contract/errors.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { nameKeyOf } from './service.ts';
import type { ServiceMapRepository } from './service-map-repository.ts';

/**
 * A claim younger than this may belong to a create or rename still between its writes, so it is never
 * taken over; an older one whose service is gone or renamed is what a crash left behind.
 */
const STALE_CLAIM_AFTER_MS = 60_000;

const taken = (name: string): ConflictError =>
  new ConflictError('A service with this name exists', [`name: ${name} is already the name of a service`]);

/**
 * Claims `name` for `serviceId` with a conditional put (409 when another service holds it), taking over a
 * stale claim. A claim the service holds already is kept (a retried rename).
 */
export const claimServiceName = async (
  map: ServiceMapRepository,
  clock: Clock,
  name: string,
  serviceId: string,
): Promise<void> => {
  const nameKey = nameKeyOf(name);
  const now = clock.now();
  const claim = { serviceId, claimedAt: now.toISOString() };
  if (await map.claimName(nameKey, claim)) return;
  const existing = await map.findClaim(nameKey);
  if (!existing) {
    if (await map.claimName(nameKey, claim)) return;
    throw taken(name);
  }
  if (existing.serviceId === serviceId) return;
  const holder = await map.findService(existing.serviceId);
  const holds = holder !== undefined && nameKeyOf(holder.service.name) === nameKey;
  const young = now.getTime() - Date.parse(existing.claimedAt) < STALE_CLAIM_AFTER_MS;
  if (holds || young || !(await map.takeOverClaim(nameKey, existing.serviceId, claim))) throw taken(name);
};
