import type { IncidentPriority } from '#lib/incidents/incident.ts';

export const PLAYBOOK_STATUSES = ['DRAFT', 'PUBLISHED'] as const;
export type PlaybookStatus = (typeof PLAYBOOK_STATUSES)[number];

/** A step as written: `optional` steps may be skipped during an execution, required ones may not. */
export interface PlaybookStep {
  title: string;
  instructions: string | null;
  optional: boolean;
}

/**
 * What matching looks at (docs/playbooks.md, "Matching"). Each list is empty when the playbook sets no
 * such condition; values compare trimmed and without case.
 */
export interface TriggerConditions {
  serviceArea: string[];
  priority: IncidentPriority[];
  environment: string[];
  keywords: string[];
}

/** The content a version fixes; a PUT changes it, a publish freezes it as a PLAYBOOK_VERSION. */
export interface PlaybookContent {
  title: string;
  description: string | null;
  steps: PlaybookStep[];
  triggerConditions: TriggerConditions;
}

/**
 * A playbook as its head item holds it: the latest content (`version`), which is either the draft being
 * edited or the version last published, and `publishedVersion`, the one matching and executions use
 * while `status` is PUBLISHED (a DRAFT is neither matched nor executed).
 */
export interface Playbook extends PlaybookContent {
  id: string;
  status: PlaybookStatus;
  version: number;
  publishedVersion: number | null;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An immutable snapshot of a published version. */
export interface PlaybookVersion extends PlaybookContent {
  playbookId: string;
  version: number;
  publishedAt: string;
  publishedBy: string;
}

/** What matching keeps of a published version on the head, so one query scores every playbook. */
export interface PublishedSummary {
  id: string;
  title: string;
  triggerConditions: TriggerConditions;
}

/** Playbook and execution ids are ULIDs; any other path value names nothing and is answered without a read. */
export const isSortableId = (value: string): boolean => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);

/** The same content, so a PUT that repeats it writes nothing and starts no new draft. */
export const sameContent = (a: PlaybookContent, b: PlaybookContent): boolean =>
  JSON.stringify([a.title, a.description, a.steps, a.triggerConditions]) ===
  JSON.stringify([b.title, b.description, b.steps, b.triggerConditions]);
