import type { Scope } from '#lib/identity/scope.ts';
import { incidentIdRepository } from './incident-id-repository.ts';

/** The id the next create would take now; a preview that reserves nothing. */
export const previewIncidentId = ({ ports: { table, clock }, workspaceId }: Scope): Promise<string> =>
  incidentIdRepository(table, workspaceId).nextIncidentId(clock.now());
