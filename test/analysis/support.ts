import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { LocalWorkflow } from '#infra/local/workflow.ts';
import type { SignedIn } from '../support/accounts.ts';
import type { HttpClient, TestClient } from '../support/local-stack.ts';
import { FIXTURES_DIR, loadFixture, withFields } from '../ingestion/support.ts';
import { expectAccepted, INGESTION, postRaw } from '../ingestion-routes/support.ts';

export const ASSISTANT = '/api/v1/assistant';

/** Waits until every analysis started so far has run to its end. */
export const settle = (client: TestClient): Promise<void> => (client.stack.ports.workflow as LocalWorkflow).settled();

/** A service of a test's map: its name, or its name with the repository it is built from and its owner team. */
export type MappedService = string | { name: string; repository?: string; team?: string };

/** A service map from services and `[dependent, upstream]` pairs; answers the ids by name. */
export const mapServices = async (
  client: HttpClient,
  as: SignedIn,
  services: MappedService[],
  dependencies: [string, string][],
): Promise<Record<string, string>> => {
  const ids: Record<string, string> = {};
  for (const service of services) {
    const body = typeof service === 'string' ? { name: service } : service;
    const reply = await client.request('POST', '/api/v1/service-map', body, as.auth);
    expect(reply.status, reply.text).toBe(201);
    ids[body.name] = reply.body.data.id as string;
  }
  for (const [dependent, upstream] of dependencies) {
    const reply = await client.request(
      'POST',
      '/api/v1/service-map/dependencies',
      { sourceId: ids[dependent], targetId: ids[upstream] },
      as.auth,
    );
    expect(reply.status, reply.text).toBe(201);
  }
  return ids;
};

/** A signal, fired now or `minutesAgo` (its `triggeredAt`). */
export const postSignal = async (
  client: HttpClient,
  as: SignedIn,
  { minutesAgo, ...body }: { name: string; serviceId: string; severity?: string; minutesAgo?: number },
): Promise<string> => {
  const triggeredAt = minutesAgo === undefined ? {} : { triggeredAt: new Date(Date.now() - minutesAgo * 60_000) };
  const reply = await client.request(
    'POST',
    '/api/v1/signals',
    { source: 'monitoring', severity: 'HIGH', ...body, ...triggeredAt },
    as.auth,
  );
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data.id as string;
};

/**
 * Code host A's real deployment of `Codertocat/Hello-World` (a CHANGE of the service `hello-world`), delivered
 * now and dated `minutesAgo` (the fixture's own dates are years old, outside any window).
 */
export const deployHelloWorld = async (
  client: HttpClient,
  keyHeaders: Record<string, string>,
  minutesAgo = 3,
): Promise<void> => {
  const deployment = loadFixture('codehost-a', 'deployment_status.created.0.json');
  const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const body = withFields(deployment.body, {
    'deployment.created_at': at,
    'deployment.updated_at': at,
    'deployment_status.created_at': at,
    'deployment_status.updated_at': at,
  });
  expectAccepted(
    await postRaw(
      client,
      'codehost-a',
      JSON.stringify(body),
      { 'x-github-event': 'deployment_status', 'x-github-delivery': randomUUID() },
      { headers: keyHeaders },
    ),
  );
};

/**
 * AWS CodeDeploy's real success event for `application` (a CHANGE of the service of that name, with no commit and
 * no deployer), through EventBridge, dated `minutesAgo`.
 */
export const deployWithCodeDeploy = async (
  client: HttpClient,
  keyHeaders: Record<string, string>,
  application: string,
  minutesAgo: number,
): Promise<void> => {
  const event = JSON.parse(readFileSync(join(FIXTURES_DIR, 'eventbridge', 'codedeploy-success.json'), 'utf8'));
  const body = withFields(event, {
    id: randomUUID(),
    time: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    'detail.application': application,
    'detail.deploymentId': `d-${application}`,
  });
  const reply = await client.request('POST', `${INGESTION}/eventbridge`, JSON.stringify(body), {
    'content-type': 'application/json; charset=utf-8',
    ...keyHeaders,
  });
  expectAccepted(reply);
};

/** Starts an analysis, waits for it and answers the incident's latest completed analysis. */
export const analyse = async (client: TestClient, as: SignedIn, incidentId: string) => {
  const started = await client.request('POST', `${ASSISTANT}/analyse`, { incidentId }, as.auth);
  expect(started.status, started.text).toBe(202);
  await settle(client);
  const reply = await client.request('GET', `${ASSISTANT}/analysis/${incidentId}`, undefined, as.auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

/** Words a leadership report must not use: engineering and tooling terms. */
export const JARGON =
  /\b(deploy(ment|ed|s)?|commit|sha|pipeline|roll ?back|revert|signal|upstream|latency|p99|cpu|repository|git|incident id)\b/i;
