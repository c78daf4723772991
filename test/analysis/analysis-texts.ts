import { expect } from 'vitest';
import type { SignedIn } from '../support/accounts.ts';
import type { TestClient } from '../support/local-stack.ts';
import { INCIDENTS } from '../support/incidents.ts';
import { ASSISTANT } from './support.ts';

/** An ISO-8601 instant: what no text of the analysis may carry (they tell times in words, in the workspace's zone). */
const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Fields that hold instants as data, not text people read. */
const DATA_FIELD = /(At|^asOf|^at)$/;

/** Every string a person reads in an answer: its values, but not the fields that hold instants as data. */
const textsIn = (value: unknown, key = ''): string[] => {
  if (typeof value === 'string') return DATA_FIELD.test(key) ? [] : [value];
  if (Array.isArray(value)) return value.flatMap((entry) => textsIn(entry, key));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([name, entry]) => textsIn(entry, name));
  }
  return [];
};

/**
 * Every text of an analysis and of what is written from it: the hypothesis, root cause, impact, factors,
 * remediation and evidence summaries, the leadership and engineer reports, and the incident's five whys,
 * suggestions and stakeholder message.
 */
const analysisTexts = async (
  client: TestClient,
  as: SignedIn,
  analysis: { analysisId: string; incidentId: string },
): Promise<string[]> => {
  const texts = textsIn(analysis);
  for (const audience of ['LEADERSHIP', 'ENGINEER']) {
    const reply = await client.request(
      'POST',
      `${ASSISTANT}/report`,
      { analysisId: analysis.analysisId, audience },
      as.auth,
    );
    expect(reply.status, reply.text).toBe(201);
    texts.push(reply.body.data.content as string);
  }
  for (const route of ['five-whys', 'suggestion', 'stakeholder']) {
    const reply = await client.request(
      'GET',
      `${INCIDENTS}/resolve/ai/${route}/${analysis.incidentId}`,
      undefined,
      as.auth,
    );
    expect(reply.status, reply.text).toBe(200);
    texts.push(...textsIn(reply.body.data));
  }
  return texts;
};

/** Fails with the text that carries an ISO-8601 instant, if any does. */
export const expectNoInstants = async (
  client: TestClient,
  as: SignedIn,
  analysis: { analysisId: string; incidentId: string },
): Promise<void> => {
  for (const text of await analysisTexts(client, as, analysis)) {
    expect(ISO_INSTANT.test(text), `an ISO-8601 instant in:\n${text}`).toBe(false);
  }
};
