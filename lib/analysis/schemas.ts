import * as z from 'zod/mini';
import { pageQuery } from '#lib/contract/page-query.ts';
import { ANALYSIS_STATUSES, AUDIENCES } from './analysis.ts';
import { OUTCOMES } from './pattern.ts';

const id = z.string().check(z.trim(), z.minLength(1, 'is required'), z.maxLength(100));

export const analyseBody = z.object({ incidentId: id });
export const listAnalysesQuery = z.extend(pageQuery(), { status: z.optional(z.enum(ANALYSIS_STATUSES)) });
export const incidentAnalysisParams = z.object({ incidentId: z.string() });
export const analysisIdParams = z.object({ analysisId: z.string() });
export const reportBody = z.object({ analysisId: id, audience: z.enum(AUDIENCES) });
export const learnBody = z.object({ incidentId: id, outcome: z.enum(OUTCOMES) });

export type ListAnalysesInput = z.output<typeof listAnalysesQuery>;
export type ReportInput = z.output<typeof reportBody>;
export type LearnInput = z.output<typeof learnBody>;
