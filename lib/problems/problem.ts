import type { IncidentPriority } from '#lib/incidents/incident.ts';
import { PROBLEM_STATUSES } from '#lib/tickets/ticket-statuses.ts';

/** Declared with the other ticket types' statuses, from which the tickets' list is derived. */
export { PROBLEM_STATUSES };
export type ProblemStatus = (typeof PROBLEM_STATUSES)[number];

/**
 * A problem when none is given: the spec requires only title and description, and a problem found
 * behind incidents is assumed to degrade service until someone triages it.
 */
export const DEFAULT_PROBLEM_PRIORITY: IncidentPriority = 'MEDIUM';

/**
 * A root cause shared by incidents (spec: Problem). Optional text fields are null when unset, so every
 * problem has the same shape and a PUT with null clears a field.
 */
export interface Problem {
  id: string;
  title: string;
  description: string;
  rootCause: string | null;
  workaround: string | null;
  serviceArea: string | null;
  /** On the incidents' scale. */
  priority: IncidentPriority;
  status: ProblemStatus;
  relatedIncidentIds: string[];
  assignedToEmail: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The fields a PUT may change; undefined leaves a field as it is, null clears an optional one. */
export type ProblemChanges = Partial<Omit<Problem, 'id' | 'createdAt' | 'updatedAt'>>;

/** Optional fields: absent from the item when unset, null in the problem. */
export const OPTIONAL_PROBLEM_FIELDS = ['rootCause', 'workaround', 'serviceArea', 'assignedToEmail'] as const;

/** Problem ids are ULIDs; any other path value names no problem and is answered without a read. */
export const isProblemId = (value: string): boolean => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
