import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { SignedIn } from '../support/accounts.ts';
import type { TestClient } from '../support/local-stack.ts';
import { loadFixture, withFields } from '../ingestion/support.ts';
import { expectAccepted, postRaw } from '../ingestion-routes/support.ts';

const MAP = '/api/v1/service-map';
export const BLAST = '/api/v1/blast-radius';

export type Headers = Record<string, string>;

export const createService = async (
  client: TestClient,
  as: SignedIn,
  body: Record<string, unknown>,
): Promise<{ id: string; name: string }> => {
  const reply = await client.request('POST', MAP, body, as.auth);
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data;
};

export const dependOn = async (client: TestClient, as: SignedIn, sourceId: string, targetId: string) => {
  const reply = await client.request('POST', `${MAP}/dependencies`, { sourceId, targetId }, as.auth);
  expect(reply.status, reply.text).toBe(201);
};

export const calculate = async (client: TestClient, headers: Headers, body: Record<string, unknown>) => {
  const reply = await client.request('POST', `${BLAST}/calculate`, body, headers);
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data as Report;
};

export interface Affected {
  serviceId: string;
  name: string;
  depth: number;
  riskScore: number;
  dependents: number;
  openSignals: number;
  openIncidents: number;
  failedPipelineRuns: number;
}

export interface Report {
  reportId: string;
  triggerId: string | null;
  triggerType: string | null;
  serviceId: string;
  environment: string | null;
  depth: number;
  affectedServices: Affected[];
  estimatedUserImpact: string;
  overallRiskScore: number;
  calculatedAt: string;
}

export const byName = (report: Report): Record<string, Affected> =>
  Object.fromEntries(report.affectedServices.map((affected) => [affected.name, affected]));

/** The Alertmanager payload as captured, with its `service: api` label: the signal ingestion stores. */
export const postAlertmanagerAlert = async (client: TestClient, keyHeaders: Headers): Promise<string> => {
  const fixture = loadFixture('metrics-alerts', 'captured.json');
  const data = expectAccepted(
    await postRaw(client, 'metrics-alerts', fixture.raw, fixture.headers, { headers: keyHeaders }),
  );
  return data.signalId as string;
};

/** A finished GitHub workflow run of `repository`, started `hoursAgo`, as code host A posts it. */
export const postWorkflowRun = async (
  client: TestClient,
  keyHeaders: Headers,
  run: { id: number; repository: string; conclusion: 'success' | 'failure'; hoursAgo: number },
): Promise<void> => {
  const startedAt = new Date(Date.now() - run.hoursAgo * 3_600_000).toISOString().replace(/\.\d{3}/, '');
  const body = withFields(loadFixture('codehost-a', 'workflow_run.completed.0.json').body, {
    'repository.full_name': run.repository,
    'workflow_run.id': run.id,
    'workflow_run.status': 'completed',
    'workflow_run.conclusion': run.conclusion,
    'workflow_run.run_started_at': startedAt,
    'workflow_run.updated_at': startedAt,
  });
  const headers = { 'x-github-event': 'workflow_run', 'x-github-delivery': randomUUID() };
  expectAccepted(await postRaw(client, 'codehost-a', JSON.stringify(body), headers, { headers: keyHeaders }));
};

/** The risk model of docs/service-map.md, restated to check the service's arithmetic. */
export const expectedScore = (parts: { depth: number; maxDepth: number; dependents: number; trouble: number[] }) =>
  0.5 * (1 - parts.depth / (parts.maxDepth + 1)) +
  0.2 * (1 - 1 / (1 + parts.dependents)) +
  0.3 * (1 - parts.trouble.reduce((calm, weight) => calm * (1 - weight), 1));

export const expectScore = (actual: number, expected: number): void => {
  expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(0.0051);
};
