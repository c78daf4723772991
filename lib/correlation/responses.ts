import * as z from 'zod/mini';
import { INCIDENT_PRIORITIES } from '#lib/incidents/incident.ts';
import { SIGNAL_SEVERITIES } from '#lib/signals/signal.ts';

/** What the correlation-rules routes answer in `data` (the route table's `response`). */
const severity = z.enum(SIGNAL_SEVERITIES);

export const ruleView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  order: z.int(),
  isActive: z.boolean(),
  match: z.object({
    sources: z.optional(z.array(z.string())),
    severity: z.optional(z.union([z.object({ min: severity }), z.object({ in: z.array(severity) })])),
    serviceIds: z.optional(z.array(z.string())),
    labels: z.optional(z.record(z.string(), z.array(z.string()))),
  }),
  groupBy: z.array(z.string()),
  windowMinutes: z.int(),
  minSignals: z.int(),
  action: z.object({ priority: z.enum(INCIDENT_PRIORITIES) }),
  autoResolve: z.boolean(),
  isDefault: z.boolean(),
  createdAt: z.nullable(z.iso.datetime()),
  updatedAt: z.nullable(z.iso.datetime()),
});

export const deletedRuleView = z.object({ id: z.string() });
