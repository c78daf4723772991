import * as z from 'zod/mini';
import { INCIDENT_PRIORITIES, INCIDENT_STATUSES } from './incident.ts';

/** What the incident routes answer in `data` (the route table's `response`), as `incidentView` shapes it. */
const optionalText = z.nullable(z.string());
const slaOutcome = z.optional(z.enum(['PENDING', 'MET', 'BREACHED']));

export const incidentResponse = z.object({
  id: z.string(),
  ticketId: z.string(),
  businessId: z.string(),
  summary: z.string(),
  priority: z.enum(INCIDENT_PRIORITIES),
  status: z.enum(INCIDENT_STATUSES),
  source: optionalText,
  serviceArea: optionalText,
  environment: optionalText,
  region: optionalText,
  assignedToEmail: optionalText,
  description: optionalText,
  techDescription: optionalText,
  impactSummary: optionalText,
  blastRadius: optionalText,
  acknowledgedAt: z.nullable(z.iso.datetime()),
  resolvedAt: z.nullable(z.iso.datetime()),
  resolvedBy: optionalText,
  resolution: z.nullable(z.string().check(z.describe('What ended the incident (Markdown), given when resolving'))),
  rootCause: z.nullable(z.string().check(z.describe('Why it happened (Markdown), given when resolving'))),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  createdBy: z.string(),
  firstSignalAt: z.optional(z.iso.datetime()),
  slaPolicyId: z.optional(z.string()),
  slaResponseDueAt: z.optional(z.iso.datetime()),
  slaResolveDueAt: z.optional(z.iso.datetime()),
  slaResponse: slaOutcome,
  slaResolve: slaOutcome,
});
