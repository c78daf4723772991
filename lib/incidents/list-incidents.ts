import type { Incident } from './incident.ts';
import { incidentRepository } from './incident-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { ListIncidentsInput } from './schemas.ts';
import type { Page } from '#lib/store/pages.ts';

/**
 * A page of incidents, newest first, with the total of matches. Cost (docs/data-model.md 4): the total
 * counts the whole matching key range, so narrowing by status, priority or dates keeps it cheap.
 */
export const listIncidents = async (
  { ports, workspaceId }: Scope,
  { page, limit, cursor, ...filters }: ListIncidentsInput,
): Promise<Page<Incident>> =>
  incidentRepository(ports.table, workspaceId).queryIncidents(filters, { page, limit, cursor });
