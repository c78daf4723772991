import * as z from 'zod/mini';
import { INCIDENT_PRIORITIES } from '#lib/incidents/incident.ts';
import { EXECUTION_STATUSES, STEP_STATUSES } from './execution.ts';
import { PLAYBOOK_STATUSES } from './playbook.ts';

/** What the playbook routes answer in `data` (and beside it), the source of their OpenAPI responses. */
const nullableText = z.nullable(z.string());
const count = z.number().check(z.int(), z.gte(0));
const share = z.number().check(z.gte(0), z.lte(1));

export const playbookData = z.object({
  id: z.string(),
  title: z.string(),
  description: nullableText,
  steps: z.array(z.object({ title: z.string(), instructions: nullableText, optional: z.boolean() })),
  triggerConditions: z.object({
    serviceArea: z.array(z.string()),
    priority: z.array(z.enum(INCIDENT_PRIORITIES)),
    environment: z.array(z.string()),
    keywords: z.array(z.string()),
  }),
  status: z.enum(PLAYBOOK_STATUSES),
  version: z.number().check(z.int(), z.gte(1)),
  publishedVersion: z.nullable(z.number().check(z.int(), z.gte(1))),
  publishedAt: nullableText,
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const executionData = z.object({
  executionId: z.string(),
  playbookId: z.string(),
  playbookTitle: z.string(),
  playbookVersion: z.number().check(z.int(), z.gte(1)),
  incidentId: nullableText,
  assignedToEmail: nullableText,
  status: z.enum(EXECUTION_STATUSES),
  currentStepIndex: count,
  steps: z.array(
    z.object({
      index: count,
      title: z.string(),
      instructions: nullableText,
      optional: z.boolean(),
      status: z.enum(STEP_STATUSES),
      note: nullableText,
      reason: nullableText,
      startedAt: nullableText,
      finishedAt: nullableText,
      finishedBy: nullableText,
    }),
  ),
  actions: z.array(
    z.object({ description: z.string(), stepIndex: count, recordedBy: z.string(), recordedAt: z.string() }),
  ),
  startedBy: z.string(),
  startedAt: z.string(),
  completedAt: nullableText,
  cancelledAt: nullableText,
  cancelReason: nullableText,
  updatedAt: z.string(),
});

export const pageMetaExtra = z.object({
  meta: z.object({
    total: count,
    page: z.number().check(z.int(), z.gte(1)),
    limit: z.number().check(z.int(), z.gte(1)),
    totalPages: count,
    nextCursor: z.optional(z.nullable(z.string())),
  }),
});

export const matchData = z.nullable(z.object({ playbookId: z.string(), title: z.string(), matchScore: share }));

export const statsData = z.object({
  totalPlaybooks: count,
  totalExecutions: count,
  completedExecutions: count,
  cancelledExecutions: count,
  inProgressExecutions: count,
  averageCompletionMinutes: z.number().check(z.gte(0)),
  stepSkipRate: share,
});

export const patternsData = z.object({
  frequentlySkippedSteps: z.array(
    z.object({
      playbookId: z.string(),
      playbookTitle: z.string(),
      step: z.string(),
      skipped: count,
      reached: count,
      skipRate: share,
    }),
  ),
  recurringActions: z.array(z.object({ action: z.string(), executions: count, playbookIds: z.array(z.string()) })),
  usuallyCancelledPlaybooks: z.array(
    z.object({
      playbookId: z.string(),
      playbookTitle: z.string(),
      endedExecutions: count,
      cancelled: count,
      cancelRate: share,
    }),
  ),
  thresholds: z.object({ minOccurrences: count, minSkipRate: share, cancelRateAbove: share }),
});

export const suggestionsData = z.array(
  z.union([
    z.object({
      type: z.literal('STEP'),
      stepIndex: count,
      title: z.string(),
      instructions: nullableText,
      optional: z.boolean(),
    }),
    z.object({ type: z.literal('AD_HOC_ACTION'), description: z.string(), occurrences: count }),
  ]),
);

export const deletedData = z.object({ id: z.string() });
