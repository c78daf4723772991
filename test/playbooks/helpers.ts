import { expect } from 'vitest';
import type { SignedIn } from '../support/accounts.ts';
import type { TestClient } from '../support/local-stack.ts';

export const PLAYBOOKS = '/api/v1/playbooks';
export const EXECUTIONS = `${PLAYBOOKS}/executions`;
export const UNKNOWN_ID = '01J0000000000000000000000Z';

export const STEPS = [
  { title: 'Check the dashboards', instructions: 'Error rate and latency' },
  { title: 'Restart the workers', optional: true },
  { title: 'Confirm recovery' },
];

/** Requests that must succeed, answering `data`. */
export const playbookApi = (client: TestClient) => {
  const call = async (method: string, path: string, body: unknown, as: SignedIn, status = 200) => {
    const reply = await client.request(method, path, body, as.auth);
    expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(status);
    return reply.body.data;
  };
  const create = (as: SignedIn, body: Record<string, unknown> = {}) =>
    call('POST', PLAYBOOKS, { title: 'Database failover', steps: STEPS, ...body }, as, 201);
  const publish = (as: SignedIn, id: string) => call('POST', `${PLAYBOOKS}/${id}/publish`, undefined, as);
  const createPublished = async (as: SignedIn, body: Record<string, unknown> = {}) =>
    publish(as, (await create(as, body)).id);
  const execute = (as: SignedIn, id: string, body: Record<string, unknown> = {}) =>
    call('POST', `${PLAYBOOKS}/${id}/execute`, body, as, 201);
  const complete = (as: SignedIn, executionId: string, index: number, body: Record<string, unknown> = {}) =>
    call('POST', `${EXECUTIONS}/${executionId}/steps/${index}/complete`, body, as);
  const skip = (as: SignedIn, executionId: string, index: number, body: Record<string, unknown> = {}) =>
    call('POST', `${EXECUTIONS}/${executionId}/steps/${index}/skip`, body, as);
  const act = (as: SignedIn, executionId: string, description: string) =>
    call('POST', `${EXECUTIONS}/${executionId}/actions`, { description }, as, 201);
  const cancel = (as: SignedIn, executionId: string, reason?: string) =>
    call('POST', `${EXECUTIONS}/${executionId}/cancel`, reason ? { reason } : undefined, as);
  const incident = (as: SignedIn, body: Record<string, unknown>) =>
    call('POST', '/api/v1/incident-ticket', { summary: 'Checkout fails', priority: 'HIGH', ...body }, as, 201);
  return { call, create, publish, createPublished, execute, complete, skip, act, cancel, incident };
};
