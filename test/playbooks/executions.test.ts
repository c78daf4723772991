import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, type SignedIn, signUpBusiness } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { EXECUTIONS, PLAYBOOKS, playbookApi, UNKNOWN_ID } from './helpers.ts';

describe('playbook executions', () => {
  let client: TestClient;
  let api: ReturnType<typeof playbookApi>;
  let admin: SignedIn;
  let other: SignedIn;
  let viewer: SignedIn;
  let playbookId: string;

  beforeAll(async () => {
    client = await startTestStack();
    api = playbookApi(client);
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    viewer = await joinAs(client, admin, 'VIEWER');
    playbookId = (await api.createPublished(admin)).id;
  });
  afterAll(() => client.stack.stop());

  const statusOf = async (method: string, path: string, body?: unknown, as: SignedIn = admin) =>
    (await client.request(method, path, body, as.auth)).status;

  describe('POST /playbooks/:id/execute', () => {
    it('starts IN_PROGRESS with the first step current and the others PENDING', async () => {
      const reply = await client.request(
        'POST',
        `${PLAYBOOKS}/${playbookId}/execute`,
        { assignedToEmail: ' Oncall@Example.com ' },
        admin.auth,
      );
      expect(reply.status, reply.text).toBe(201);
      const execution = reply.body.data;
      expect(execution).toMatchObject({
        playbookId,
        playbookVersion: 1,
        incidentId: null,
        assignedToEmail: 'oncall@example.com',
        status: 'IN_PROGRESS',
        currentStepIndex: 0,
        actions: [],
        startedBy: admin.email,
      });
      expect(execution.steps.map((step: { index: number; status: string }) => [step.index, step.status])).toEqual([
        [0, 'IN_PROGRESS'],
        [1, 'PENDING'],
        [2, 'PENDING'],
      ]);
      expect(await api.call('GET', `${EXECUTIONS}/${execution.executionId}`, undefined, admin)).toEqual(execution);
    });

    it('refuses a draft with 409, never published or a new version of a published one, until it is published', async () => {
      const draft = await api.create(admin);
      const refused = await client.request('POST', `${PLAYBOOKS}/${draft.id}/execute`, {}, admin.auth);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('Only a published playbook can be executed');
      await api.publish(admin, draft.id);
      const before = await api.execute(admin, draft.id);
      expect(before).toMatchObject({ playbookVersion: 1, playbookTitle: 'Database failover' });

      const edited = await api.call(
        'PUT',
        `${PLAYBOOKS}/${draft.id}`,
        { title: 'Rewritten', steps: [{ title: 'New only step' }] },
        admin,
      );
      expect(edited).toMatchObject({ status: 'DRAFT', version: 2, publishedVersion: 1 });
      const underDraft = await client.request('POST', `${PLAYBOOKS}/${draft.id}/execute`, {}, admin.auth);
      expect(underDraft.status).toBe(409);
      expect(underDraft.body).toEqual(refused.body);

      // The execution started before the edit runs on with version 1's three steps.
      await api.complete(admin, before.executionId, 0);
      await api.skip(admin, before.executionId, 1);
      const finished = await api.complete(admin, before.executionId, 2);
      expect(finished).toMatchObject({ status: 'COMPLETED', playbookVersion: 1, playbookTitle: 'Database failover' });
      expect(finished.steps.map((step: { status: string }) => step.status)).toEqual([
        'COMPLETED',
        'SKIPPED',
        'COMPLETED',
      ]);

      await api.publish(admin, draft.id);
      const after = await api.execute(admin, draft.id);
      expect(after).toMatchObject({ playbookVersion: 2, playbookTitle: 'Rewritten', status: 'IN_PROGRESS' });
      expect(after.steps.map((step: { title: string }) => step.title)).toEqual(['New only step']);
    });

    it('notes the execution on the linked incident: a SYSTEM message and a PLAYBOOK_STARTED history event', async () => {
      const incident = await api.incident(admin, {});
      const execution = await api.execute(admin, playbookId, { incidentId: incident.id });
      expect(execution.incidentId).toBe(incident.id);
      const messages = await api.call('GET', `/api/v1/incident-ticket/message/${incident.id}`, undefined, admin);
      expect(messages).toContainEqual(
        expect.objectContaining({
          kind: 'SYSTEM',
          text: expect.stringContaining(execution.executionId),
          actor: admin.email,
        }),
      );
      const history = await api.call('GET', `/api/v1/tickets/history?ticketId=${incident.id}`, undefined, admin);
      expect(history).toContainEqual(
        expect.objectContaining({ event: 'PLAYBOOK_STARTED', to: execution.executionId, actor: admin.email }),
      );
    });

    it("answers 404 for another workspace's incident and starts nothing; 400 for a bad body", async () => {
      const before = (await client.request('GET', `${EXECUTIONS}/list`, undefined, admin.auth)).body.meta.total;
      await api.incident(other, {});
      const theirs = await api.incident(other, {});
      const reply = await client.request(
        'POST',
        `${PLAYBOOKS}/${playbookId}/execute`,
        { incidentId: theirs.id },
        admin.auth,
      );
      expect(reply.status).toBe(404);
      const bad = await client.request(
        'POST',
        `${PLAYBOOKS}/${playbookId}/execute`,
        { assignedToEmail: 'nope' },
        admin.auth,
      );
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([expect.stringMatching(/^assignedToEmail: /)]);
      expect((await client.request('GET', `${EXECUTIONS}/list`, undefined, admin.auth)).body.meta.total).toBe(before);
    });
  });

  describe('steps', () => {
    it('completes steps in order with notes, skips an optional one and completes the execution at the last step', async () => {
      const { executionId } = await api.execute(admin, playbookId);
      expect(await statusOf('POST', `${EXECUTIONS}/${executionId}/steps/1/complete`)).toBe(409);
      expect(await statusOf('POST', `${EXECUTIONS}/${executionId}/steps/7/complete`)).toBe(404);
      expect(await statusOf('POST', `${EXECUTIONS}/${executionId}/steps/-1/complete`)).toBe(400);
      const skipRequired = await client.request('POST', `${EXECUTIONS}/${executionId}/steps/0/skip`, {}, admin.auth);
      expect(skipRequired.status).toBe(409);
      expect(skipRequired.body.message).toBe('Step 0 is required and cannot be skipped');

      const first = await api.complete(admin, executionId, 0, { note: 'Error rate at 12%' });
      expect(first.currentStepIndex).toBe(1);
      expect(first.steps[0]).toMatchObject({ status: 'COMPLETED', note: 'Error rate at 12%', finishedBy: admin.email });
      expect(first.steps[1]).toMatchObject({ status: 'IN_PROGRESS', startedAt: expect.any(String) });
      expect(await statusOf('POST', `${EXECUTIONS}/${executionId}/steps/0/complete`)).toBe(409);

      const second = await api.skip(admin, executionId, 1, { reason: 'Workers were healthy' });
      expect(second.steps[1]).toMatchObject({ status: 'SKIPPED', reason: 'Workers were healthy' });
      const done = await api.complete(admin, executionId, 2);
      expect(done).toMatchObject({ status: 'COMPLETED', currentStepIndex: 2, completedAt: expect.any(String) });
      expect(done.steps.map((step: { status: string }) => step.status)).toEqual(['COMPLETED', 'SKIPPED', 'COMPLETED']);
      expect(await statusOf('POST', `${EXECUTIONS}/${executionId}/steps/2/complete`)).toBe(409);
      expect(await statusOf('POST', `${EXECUTIONS}/${executionId}/actions`, { description: 'late' })).toBe(409);
      expect(await statusOf('POST', `${EXECUTIONS}/${executionId}/cancel`)).toBe(409);
    });

    it('lets exactly one of several concurrent completions of a step win', async () => {
      const { executionId } = await api.execute(admin, playbookId);
      const replies = await Promise.all(
        Array.from({ length: 5 }, (_value, attempt) =>
          client.request(
            'POST',
            `${EXECUTIONS}/${executionId}/steps/0/complete`,
            { note: `try ${attempt}` },
            admin.auth,
          ),
        ),
      );
      expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409, 409, 409, 409]);
      const execution = await api.call('GET', `${EXECUTIONS}/${executionId}`, undefined, admin);
      expect(execution.currentStepIndex).toBe(1);
      const winner = replies.find((reply) => reply.status === 200);
      expect(execution.steps[0].note).toBe(winner?.body.data.steps[0].note);
      expect(execution.steps[1].status).toBe('IN_PROGRESS');
    });

    it('records ad-hoc actions at the current step and cancels with a reason', async () => {
      const { executionId } = await api.execute(admin, playbookId);
      const withAction = await api.act(admin, executionId, 'Paged the database team');
      expect(withAction.actions).toEqual([
        {
          description: 'Paged the database team',
          stepIndex: 0,
          recordedBy: admin.email,
          recordedAt: expect.any(String),
        },
      ]);
      expect(await statusOf('POST', `${EXECUTIONS}/${executionId}/actions`, { description: ' ' })).toBe(400);
      const cancelled = await api.cancel(admin, executionId, 'False alarm');
      expect(cancelled).toMatchObject({
        status: 'CANCELLED',
        cancelReason: 'False alarm',
        cancelledAt: expect.any(String),
      });
      expect(await statusOf('POST', `${EXECUTIONS}/${executionId}/steps/0/complete`)).toBe(409);
    });
  });

  describe('GET /playbooks/executions/list', () => {
    it('lists newest first with a status filter and totals', async () => {
      const business = await signUpBusiness(client, { businessName: 'Runs Co' });
      const playbook = await api.createPublished(business);
      const ids: string[] = [];
      for (let index = 0; index < 3; index += 1) ids.push((await api.execute(business, playbook.id)).executionId);
      await api.cancel(business, ids[0] as string);
      const all = await client.request('GET', `${EXECUTIONS}/list`, undefined, business.auth);
      expect(all.body.data.map((execution: { executionId: string }) => execution.executionId)).toEqual(
        [...ids].reverse(),
      );
      expect(all.body.meta).toEqual({ total: 3, page: 1, limit: 20, totalPages: 1 });
      const running = await client.request(
        'GET',
        `${EXECUTIONS}/list?status=IN_PROGRESS&limit=1&page=2`,
        undefined,
        business.auth,
      );
      expect(running.body.data.map((execution: { executionId: string }) => execution.executionId)).toEqual([ids[1]]);
      expect(running.body.meta).toEqual({ total: 2, page: 2, limit: 1, totalPages: 2 });
      const cancelled = await client.request('GET', `${EXECUTIONS}/list?status=CANCELLED`, undefined, business.auth);
      expect(cancelled.body.meta.total).toBe(1);
      expect(await statusOf('GET', `${EXECUTIONS}/list?status=DONE`, undefined, business)).toBe(400);
    });
  });

  describe("other workspaces' ids, roles and scopes", () => {
    it("answers 404 for another workspace's execution on every route", async () => {
      const theirPlaybook = await api.createPublished(other);
      const { executionId } = await api.execute(other, theirPlaybook.id);
      for (const id of [executionId, UNKNOWN_ID, 'nope']) {
        const attempts: [string, string, unknown][] = [
          ['GET', `${EXECUTIONS}/${id}`, undefined],
          ['GET', `${EXECUTIONS}/${id}/suggestions`, undefined],
          ['POST', `${EXECUTIONS}/${id}/steps/0/complete`, {}],
          ['POST', `${EXECUTIONS}/${id}/steps/0/skip`, {}],
          ['POST', `${EXECUTIONS}/${id}/actions`, { description: 'x' }],
          ['POST', `${EXECUTIONS}/${id}/cancel`, {}],
        ];
        for (const [method, path, body] of attempts)
          expect(await statusOf(method, path, body), `${method} ${path}`).toBe(404);
      }
      const untouched = await api.call('GET', `${EXECUTIONS}/${executionId}`, undefined, other);
      expect(untouched).toMatchObject({ status: 'IN_PROGRESS', currentStepIndex: 0, actions: [] });
    });

    it('lets a VIEWER read executions but not change them', async () => {
      const { executionId } = await api.execute(admin, playbookId);
      expect(await statusOf('GET', `${EXECUTIONS}/list`, undefined, viewer)).toBe(200);
      expect(await statusOf('GET', `${EXECUTIONS}/${executionId}`, undefined, viewer)).toBe(200);
      expect(await statusOf('GET', `${EXECUTIONS}/${executionId}/suggestions`, undefined, viewer)).toBe(200);
      expect(await statusOf('GET', `${PLAYBOOKS}/patterns`, undefined, viewer)).toBe(200);
      for (const [path, body] of [
        [`steps/0/complete`, {}],
        [`steps/0/skip`, {}],
        ['actions', { description: 'x' }],
        ['cancel', {}],
      ] as const) {
        expect(await statusOf('POST', `${EXECUTIONS}/${executionId}/${path}`, body, viewer), path).toBe(403);
      }
      expect((await api.call('GET', `${EXECUTIONS}/${executionId}`, undefined, admin)).currentStepIndex).toBe(0);
    });

    it('takes API keys: incidents:write to run, incidents:read to read', async () => {
      const [reader, writer] = await Promise.all([
        apiKeyHeaders(client, admin, ['incidents:read']),
        apiKeyHeaders(client, admin, ['incidents:write']),
      ]);
      expect((await client.request('POST', `${PLAYBOOKS}/${playbookId}/execute`, {}, reader)).status).toBe(403);
      const started = await client.request('POST', `${PLAYBOOKS}/${playbookId}/execute`, {}, writer);
      expect(started.status).toBe(201);
      expect(started.body.data.startedBy).toBe('api-key:test key incidents:write');
      const id = started.body.data.executionId;
      expect((await client.request('POST', `${EXECUTIONS}/${id}/steps/0/complete`, {}, reader)).status).toBe(403);
      expect((await client.request('POST', `${EXECUTIONS}/${id}/steps/0/complete`, {}, writer)).status).toBe(200);
      expect((await client.request('GET', `${EXECUTIONS}/${id}`, undefined, reader)).status).toBe(200);
      expect((await client.request('GET', `${EXECUTIONS}/list`, undefined, writer)).status).toBe(403);
    });
  });
});
