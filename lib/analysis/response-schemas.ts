import * as z from 'zod/mini';
import { EVIDENCE_CHECKS, EVIDENCE_KINDS } from '#lib/ports/reasoner/evidence.ts';
import { ANALYSIS_STAGES, ANALYSIS_STATUSES, AUDIENCES } from './analysis.ts';
import { OUTCOMES } from './pattern.ts';

/** The shapes the assistant and incident AI routes answer: their OpenAPI responses and the tests' contract. */
const text = z.nullable(z.string());
const ids = z.array(z.string());

export const analysisSchema = z.object({
  analysisId: z.string(),
  incidentId: z.string(),
  status: z.enum(ANALYSIS_STATUSES),
  stage: z.enum([...ANALYSIS_STAGES, 'failed', 'queued']),
  estimatedCompletionSeconds: z.number(),
  hypothesis: text,
  rootCause: text,
  impactAssessment: text,
  contributingFactors: z.array(z.string()),
  remediationOptions: z.array(z.string()),
  confidence: z.nullable(z.number().check(z.gte(0), z.lte(1))),
  createdAt: z.string(),
  asOf: z.nullable(
    z
      .string()
      .check(
        z.describe(
          'When the evidence was gathered: the analysis knows nothing later, and texts written while the incident ' +
            'was open say "as of" this time. Null until context gathering has run.',
        ),
      ),
  ),
  completedAt: text,
  failureReason: text,
  engine: z.nullable(z.object({ name: z.enum(['default', 'bedrock']), modelId: text, fallbackReason: text })),
  citations: z.object({
    hypothesis: ids,
    rootCause: ids,
    impactAssessment: ids,
    contributingFactors: z.array(ids),
    remediationOptions: z.array(ids),
  }),
});

export const reportSchema = z.object({
  reportId: z.string(),
  analysisId: z.string(),
  audience: z.enum(AUDIENCES),
  content: z.string(),
  generatedAt: z.string(),
});

const evidenceItemSchema = z.object({
  id: z.string(),
  kind: z.enum(EVIDENCE_KINDS),
  check: z.enum(EVIDENCE_CHECKS),
  service: text,
  at: text,
  summary: z.string(),
  strength: z.number(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
});

export const latestAnalysisSchema = z.extend(analysisSchema, {
  reports: z.array(reportSchema),
  evidence: z.array(evidenceItemSchema),
});

export const learnedSchema = z.object({
  incidentId: z.string(),
  outcome: z.enum(OUTCOMES),
  analysisId: z.string(),
  patternId: z.string(),
  patternKey: z.string(),
  recordedAt: z.string(),
  previousOutcome: z.nullable(z.enum(OUTCOMES)),
});

export const patternSchema = z.object({
  patternId: z.string(),
  description: z.string(),
  occurrences: z.number(),
  affectedServices: z.array(z.string()),
  firstSeen: z.string(),
  lastSeen: z.string(),
  suggestedFix: z.string(),
  suspectKind: z.string(),
  suspectService: text,
  outcomes: z.record(z.enum(OUTCOMES), z.number()),
});

export const pageAndTotal = z.object({
  page: z.number(),
  total: z.number(),
  nextCursor: z.optional(z.nullable(z.string())),
});
