import * as z from 'zod/mini';
import { TRIGGER_TYPES } from './blast-report.ts';

/** What the blast-radius routes answer in `data` (the route table's `response`). */
const score = z.number().check(z.gte(0), z.lte(1));

export const reportView = z.object({
  reportId: z.string(),
  triggerId: z.nullable(z.string()),
  triggerType: z.nullable(z.enum(TRIGGER_TYPES)),
  serviceId: z.string(),
  environment: z.nullable(z.string()),
  depth: z.int(),
  affectedServices: z.array(
    z.object({
      serviceId: z.string(),
      name: z.string(),
      riskScore: score,
      depth: z.int().check(z.describe("Hops from the report's service: 0 is the service itself")),
      dependents: z.int(),
      openSignals: z.int(),
      openIncidents: z.int(),
      failedPipelineRuns: z.int(),
    }),
  ),
  estimatedUserImpact: z.string(),
  overallRiskScore: score,
  calculatedAt: z.iso.datetime(),
});

export const pageAndTotal = z.object({ page: z.int(), total: z.int(), nextCursor: z.optional(z.nullable(z.string())) });

export const riskSummaryView = z.object({
  totalServicesAnalysed: z.int(),
  highRiskServices: z.array(z.object({ serviceId: z.string(), name: z.string(), averageRiskScore: score })),
  riskDistribution: z.object({ high: z.int(), medium: z.int(), low: z.int() }),
  lastUpdated: z.nullable(z.iso.datetime()),
});
