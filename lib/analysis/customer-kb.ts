import { reasonerOf } from './engine/reasoner-of.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { findIncident } from '#lib/incidents/get-incident.ts';
import type { Incident } from '#lib/incidents/incident.ts';
import { type KbDraft, kbDraftRepository } from '#lib/incidents/kb-draft-repository.ts';
import { resolveIncident } from '#lib/incidents/resolve-incident.ts';
import { reasonAbout } from './incident-insights.ts';
import { customerExposure, timeToRecover } from './report-content.ts';

/**
 * Resolves the incident as `POST /resolve/:id` does (from any status), then drafts a
 * customer knowledge-base article from the evidence in plain words, and stores it with the incident.
 */
export const resolveWithKb = async (
  scope: Scope,
  incidentId: string,
): Promise<{ incident: Incident; kbArticle: KbDraft }> => {
  const incident = await resolveIncident(scope, { id: (await findIncident(scope, incidentId)).id });
  const { evidence, hypothesis } = await reasonAbout(scope, incident);
  const impact = await reasonerOf(scope).assessImpact(evidence, hypothesis);
  const plan = await reasonerOf(scope).planRemediation(evidence, hypothesis, impact);
  const title = incident.description
    ? `Resolved: ${incident.summary}`
    : `Resolved: a problem with ${incident.serviceArea ?? 'our service'}`;
  const content = [
    `# ${title}`,
    '## What happened',
    `${impact.plainImpact} ${hypothesis.plainCause}`,
    '## Who was affected',
    customerExposure(evidence).replace(/^Customers: /, ''),
    '## Status',
    `This problem is resolved. ${timeToRecover(evidence)}`,
    '## What we are doing to prevent it',
    ...(plan.plainNextSteps.length > 0
      ? plan.plainNextSteps.map((step) => `- ${step}`)
      : ['- We are reviewing what happened.']),
    '## Do I need to do anything?',
    'No action is needed. If something still does not work as expected, please contact support.',
  ].join('\n');
  const kbArticle: KbDraft = {
    incidentId: incident.id,
    title,
    content,
    status: 'DRAFT',
    generatedAt: scope.ports.clock.now().toISOString(),
  };
  await kbDraftRepository(scope.ports.table, scope.workspaceId).putKbDraft(kbArticle);
  return { incident, kbArticle };
};
