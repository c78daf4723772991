import * as z from 'zod/mini';

/**
 * What the incident group's AI routes answer, apart from the assistant's schemas so the incidents
 * bundle carries only these few.
 */
const ids = z.array(z.string());

export const fiveWhysSchema = z.object({
  incidentId: z.string(),
  why1: z.string(),
  why2: z.string(),
  why3: z.string(),
  why4: z.string(),
  why5: z.string(),
  rootCause: z.string(),
  confidence: z.number(),
  citations: z.object({ whys: z.array(ids), rootCause: ids }),
});

export const suggestionsSchema = z.object({
  incidentId: z.string(),
  rootCause: z.string(),
  confidence: z.number(),
  suggestions: z.array(z.object({ action: z.string(), evidenceIds: ids })),
});

export const stakeholderSchema = z.object({ incidentId: z.string(), message: z.string(), generatedAt: z.string() });

const kbArticleSchema = z.object({
  incidentId: z.string(),
  title: z.string(),
  content: z.string(),
  status: z.enum(['DRAFT']),
  generatedAt: z.string(),
});

/** The resolved incident as every incident route shows it (its fields are the incidents group's own). */
export const resolvedWithKbSchema = z.object({
  incident: z.object({ id: z.string(), status: z.string() }),
  kbArticle: kbArticleSchema,
});
