import * as z from 'zod/mini';
import { ESCALATION_POLICY_RULE, REPOSITORY_RULE } from './service.ts';

/** What the service-map routes answer in `data` (the route table's `response`, the OpenAPI document's source). */
const nullableText = z.nullable(z.string());

export const serviceView = z.object({
  id: z.string(),
  name: z.string(),
  description: nullableText,
  team: nullableText,
  repository: z.nullable(z.string().check(z.describe(REPOSITORY_RULE))),
  escalationPolicyId: z.nullable(z.string().check(z.describe(ESCALATION_POLICY_RULE))),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const dependencyView = z.object({
  id: z.string(),
  sourceId: z.string().check(z.describe('The dependent, downstream service')),
  targetId: z.string().check(z.describe('The depended-upon, upstream service')),
  createdAt: z.iso.datetime(),
});

export const servicesView = z.object({ services: z.array(serviceView) });

export const topologyView = z.object({
  nodes: z.array(z.object({ id: z.string(), name: z.string(), team: nullableText })),
  edges: z.array(
    z.object({
      id: z.string(),
      sourceId: z.string().check(z.describe('The upstream service (reversed from the dependency)')),
      targetId: z.string().check(z.describe('The downstream service, which depends on the source')),
    }),
  ),
});

export const downstreamImpactView = z.object({
  impactedServices: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      depth: z.int().check(z.gte(1), z.describe('Hops from the service: 1 = a direct dependent')),
    }),
  ),
});

export const deletedView = z.object({ id: z.string() });
