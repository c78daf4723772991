import type { Incident } from './incident.ts';
import { queryIncidents } from './incident-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { ListIncidentsInput } from './schemas.ts';

/**
 * A page of incidents, newest first, with the total of matches. Cost (docs/data-model.md 4): the total
 * counts the whole matching key range, so narrowing by status, priority or dates keeps it cheap.
 */
export const listIncidents = async (
  { ports: runtime, workspaceId }: Scope,
  { page, limit, ...filters }: ListIncidentsInput,
): Promise<{ items: Incident[]; total: number }> =>
  queryIncidents(runtime.table, workspaceId, filters, { page, limit });
