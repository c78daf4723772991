import { filterKey } from '#lib/store/filter-key.ts';

/** A service of the workspace's map (spec: Service). Optional fields are null when unset. */
export interface Service {
  id: string;
  name: string;
  description: string | null;
  /** A team slug. */
  team: string | null;
  /**
   * The code repository (`owner/repo`) the service is built from: its deploys and pipeline runs are the service's
   * changes (`ownsRepository`).
   */
  repository: string | null;
  /** The escalation policy its incidents page by; null: the workspace's default escalation (docs/on-call.md). */
  escalationPolicyId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `sourceId` depends on `targetId`: the source is downstream of the target (spec: Dependency). */
export interface Dependency {
  id: string;
  sourceId: string;
  targetId: string;
  createdAt: string;
}

/** The fields a PATCH may change; undefined leaves one as it is, null clears an optional one. */
export type ServiceChanges = Partial<
  Pick<Service, 'name' | 'description' | 'team' | 'repository' | 'escalationPolicyId'>
>;

/** Names are unique without regard to case or surrounding blanks: `Checkout` and ` checkout` are one name. */
export const nameKeyOf = (name: string): string => filterKey(name);

/** How a repository's changes reach a service (docs/service-map.md, "Repositories"): the OpenAPI text of the field. */
export const REPOSITORY_RULE =
  'The code repository (owner/repo) the service is built from: its deployments and pipeline runs are the ' +
  "service's changes, for the analysis' recent changes and blast radius (failed runs), and a code host's " +
  "signals about it are the service's (their serviceId, given at ingestion). Without it, a repository whose " +
  "last segment is the service name (acme/checkout for checkout) is the service's; a service naming a " +
  'repository outranks one only named like it.';

/**
 * Whether a code repository (`owner/repo`) is the service's, so that its deploys and pipeline runs are the
 * service's changes (docs/service-map.md, "Repositories"): the one its `repository` field names (without case),
 * else any whose last segment is its name (`acme/checkout` for `checkout`), so a map built from repository
 * names needs no setting. AWS's deployment services name the application they deployed, not a repository: a
 * name without an owner is the service's own name, whatever repository the service is built from.
 */
export const ownsRepository = (service: Pick<Service, 'name' | 'repository'>, repository: string): boolean => {
  const key = nameKeyOf(repository);
  if (service.repository !== null && nameKeyOf(service.repository) === key) return true;
  if (!repository.includes('/')) return key === nameKeyOf(service.name);
  return service.repository === null && nameKeyOf(repository.split('/').pop() ?? '') === nameKeyOf(service.name);
};

/** What a service's `escalationPolicyId` does: the OpenAPI text of the field. */
export const ESCALATION_POLICY_RULE = "The escalation policy its incidents page by; none: the workspace's default";

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';

/** Service ids are ULIDs; any other value names no service and is answered without a read. */
export const isServiceId = (value: string): boolean => new RegExp(`^${ULID}$`).test(value);

/**
 * A dependency's id names its two ends, so the same edge always has the same key and a second one is
 * refused by the put's own condition, with no index read racing another request.
 */
export const dependencyIdOf = (sourceId: string, targetId: string): string => `${sourceId}.${targetId}`;

export const isDependencyId = (value: string): boolean => new RegExp(`^${ULID}\\.${ULID}$`).test(value);
