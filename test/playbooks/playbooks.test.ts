import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, type SignedIn, signUpBusiness } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { PLAYBOOKS, playbookApi, STEPS, UNKNOWN_ID } from './helpers.ts';

describe('playbooks', () => {
  let client: TestClient;
  let api: ReturnType<typeof playbookApi>;
  let admin: SignedIn;
  let other: SignedIn;
  let viewer: SignedIn;

  beforeAll(async () => {
    client = await startTestStack();
    api = playbookApi(client);
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    viewer = await joinAs(client, admin, 'VIEWER');
  });
  afterAll(() => client.stack.stop());

  describe('POST /playbooks', () => {
    it('creates a DRAFT at version 1 with defaults filled in', async () => {
      const reply = await client.request(
        'POST',
        PLAYBOOKS,
        {
          title: ' Failover ',
          steps: STEPS,
          triggerConditions: { serviceArea: 'payments', priority: ['HIGH', 'HIGH'] },
        },
        admin.auth,
      );
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body.message).toBe('Playbook created');
      expect(reply.body.data).toEqual({
        id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        title: 'Failover',
        description: null,
        steps: [
          { title: 'Check the dashboards', instructions: 'Error rate and latency', optional: false },
          { title: 'Restart the workers', instructions: null, optional: true },
          { title: 'Confirm recovery', instructions: null, optional: false },
        ],
        triggerConditions: { serviceArea: ['payments'], priority: ['HIGH'], environment: [], keywords: [] },
        status: 'DRAFT',
        version: 1,
        publishedVersion: null,
        publishedAt: null,
        createdAt: expect.any(String),
        updatedAt: reply.body.data.createdAt,
      });
      const fetched = await api.call('GET', `${PLAYBOOKS}/${reply.body.data.id}`, undefined, admin);
      expect(fetched).toEqual(reply.body.data);
    });

    it('reports every bad field at once and writes nothing', async () => {
      const before = (await client.request('GET', PLAYBOOKS, undefined, admin.auth)).body.meta.total;
      const reply = await client.request(
        'POST',
        PLAYBOOKS,
        {
          title: '',
          steps: [{ instructions: 'x' }, { title: 'ok', optional: 'yes' }],
          triggerConditions: { priority: 'P1' },
        },
        admin.auth,
      );
      expect(reply.status).toBe(400);
      const fields = (reply.body.errors as string[]).map((error) => error.split(':')[0]).sort();
      expect(fields).toEqual(['steps.0.title', 'steps.1.optional', 'title', 'triggerConditions.priority']);
      const none = await client.request('POST', PLAYBOOKS, { title: 't', steps: [] }, admin.auth);
      expect(none.body.errors).toEqual(['steps: must list at least one step']);
      expect((await client.request('GET', PLAYBOOKS, undefined, admin.auth)).body.meta.total).toBe(before);
    });
  });

  describe('versions', () => {
    it('edits a draft in place, and a published playbook into a new draft version, keeping the old readable', async () => {
      const draft = await api.create(admin, { title: 'v1 title' });
      const edited = await api.call('PUT', `${PLAYBOOKS}/${draft.id}`, { description: 'first' }, admin);
      expect(edited).toMatchObject({ version: 1, status: 'DRAFT', description: 'first', title: 'v1 title' });

      const published = await api.publish(admin, draft.id);
      expect(published).toMatchObject({ status: 'PUBLISHED', version: 1, publishedVersion: 1 });
      expect(published.publishedAt).toEqual(expect.any(String));
      expect(await api.publish(admin, draft.id)).toEqual(published);

      const v2 = await api.call(
        'PUT',
        `${PLAYBOOKS}/${draft.id}`,
        { title: 'v2 title', steps: [{ title: 'Only' }] },
        admin,
      );
      expect(v2).toMatchObject({
        status: 'DRAFT',
        version: 2,
        publishedVersion: 1,
        title: 'v2 title',
        description: 'first',
      });
      expect(v2.steps).toEqual([{ title: 'Only', instructions: null, optional: false }]);
      const again = await api.call('PUT', `${PLAYBOOKS}/${draft.id}`, { description: 'second' }, admin);
      expect(again).toMatchObject({ version: 2, description: 'second' });

      const v1 = await api.call('GET', `${PLAYBOOKS}/${draft.id}?version=1`, undefined, admin);
      expect(v1).toMatchObject({
        id: draft.id,
        version: 1,
        status: 'PUBLISHED',
        title: 'v1 title',
        description: 'first',
      });
      expect(v1.steps).toHaveLength(3);
      expect(await api.call('GET', `${PLAYBOOKS}/${draft.id}?version=2`, undefined, admin)).toEqual(again);
      const missing = await client.request('GET', `${PLAYBOOKS}/${draft.id}?version=3`, undefined, admin.auth);
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('Playbook version not found');
      expect((await client.request('GET', `${PLAYBOOKS}/${draft.id}?version=0`, undefined, admin.auth)).status).toBe(
        400,
      );

      const republished = await api.publish(admin, draft.id);
      expect(republished).toMatchObject({ status: 'PUBLISHED', version: 2, publishedVersion: 2, title: 'v2 title' });
      expect((await api.call('GET', `${PLAYBOOKS}/${draft.id}?version=1`, undefined, admin)).title).toBe('v1 title');
    });

    it('writes nothing for a PUT that repeats the content, so a published playbook stays published', async () => {
      const published = await api.createPublished(admin);
      const same = await api.call(
        'PUT',
        `${PLAYBOOKS}/${published.id}`,
        { title: published.title, steps: STEPS },
        admin,
      );
      expect(same).toEqual(published);
    });

    it('refuses an empty or bad update', async () => {
      const draft = await api.create(admin);
      for (const body of [{}, { steps: [] }, { title: null }]) {
        const reply = await client.request('PUT', `${PLAYBOOKS}/${draft.id}`, body, admin.auth);
        expect(reply.status, JSON.stringify(body)).toBe(400);
      }
    });
  });

  describe('GET /playbooks', () => {
    it('lists newest first, filters by status, pages with meta and totals from the counter', async () => {
      const business = await signUpBusiness(client, { businessName: 'List Co' });
      const ids: string[] = [];
      for (let index = 0; index < 3; index += 1) ids.push((await api.create(business, { title: `p${index}` })).id);
      await api.publish(business, ids[1] as string);
      const list = (query: string) => api.call('GET', `${PLAYBOOKS}${query}`, undefined, business);
      const reply = await client.request('GET', `${PLAYBOOKS}?limit=2`, undefined, business.auth);
      expect(reply.body.data.map((playbook: { id: string }) => playbook.id)).toEqual([ids[2], ids[1]]);
      expect(reply.body.meta).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2 });
      expect((await list('?status=PUBLISHED')).map((playbook: { id: string }) => playbook.id)).toEqual([ids[1]]);
      const drafts = await client.request('GET', `${PLAYBOOKS}?status=DRAFT`, undefined, business.auth);
      expect(drafts.body.meta.total).toBe(2);
      expect((await client.request('GET', `${PLAYBOOKS}?status=ACTIVE`, undefined, business.auth)).status).toBe(400);
      const paged = await client.request('GET', `${PLAYBOOKS}?limit=1&cursor=`, undefined, business.auth);
      const next = await client.request(
        'GET',
        `${PLAYBOOKS}?limit=1&cursor=${paged.body.meta.nextCursor}`,
        undefined,
        business.auth,
      );
      expect(next.body.data[0].id).toBe(ids[1]);
    });
  });

  describe('DELETE /playbooks/:id', () => {
    it('removes the playbook, its versions and its executions; a repeat is a 404', async () => {
      const published = await api.createPublished(admin);
      const execution = await api.execute(admin, published.id);
      const reply = await client.request('DELETE', `${PLAYBOOKS}/${published.id}`, undefined, admin.auth);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ success: true, message: 'Playbook deleted', data: { id: published.id } });
      for (const path of [
        `${PLAYBOOKS}/${published.id}`,
        `${PLAYBOOKS}/${published.id}?version=1`,
        `${PLAYBOOKS}/executions/${execution.executionId}`,
      ]) {
        expect((await client.request('GET', path, undefined, admin.auth)).status, path).toBe(404);
      }
      expect((await client.request('DELETE', `${PLAYBOOKS}/${published.id}`, undefined, admin.auth)).status).toBe(404);
    });
  });

  describe("other workspaces' ids, roles and scopes", () => {
    it("answers 404 for another workspace's playbook on every route, and leaves it unchanged", async () => {
      const theirs = await api.createPublished(other);
      const attempts: [string, string, unknown][] = [
        ['GET', `${PLAYBOOKS}/${theirs.id}`, undefined],
        ['PUT', `${PLAYBOOKS}/${theirs.id}`, { title: 'mine now' }],
        ['POST', `${PLAYBOOKS}/${theirs.id}/publish`, undefined],
        ['POST', `${PLAYBOOKS}/${theirs.id}/execute`, {}],
        ['DELETE', `${PLAYBOOKS}/${theirs.id}`, undefined],
        ['GET', `${PLAYBOOKS}/${UNKNOWN_ID}`, undefined],
        ['GET', `${PLAYBOOKS}/not-an-id`, undefined],
      ];
      for (const [method, path, body] of attempts) {
        const reply = await client.request(method, path, body, admin.auth);
        expect(reply.status, `${method} ${path}`).toBe(404);
      }
      expect(await api.call('GET', `${PLAYBOOKS}/${theirs.id}`, undefined, other)).toEqual(theirs);
    });

    it('lets a VIEWER read but not write', async () => {
      const playbook = await api.createPublished(admin);
      expect((await client.request('GET', PLAYBOOKS, undefined, viewer.auth)).status).toBe(200);
      expect((await client.request('GET', `${PLAYBOOKS}/${playbook.id}`, undefined, viewer.auth)).status).toBe(200);
      expect((await client.request('POST', `${PLAYBOOKS}/match`, { priority: 'HIGH' }, viewer.auth)).status).toBe(200);
      expect((await client.request('GET', `${PLAYBOOKS}/stats`, undefined, viewer.auth)).status).toBe(200);
      const writes = [
        ['POST', PLAYBOOKS, { title: 't', steps: STEPS }],
        ['PUT', `${PLAYBOOKS}/${playbook.id}`, { title: 'x' }],
        ['POST', `${PLAYBOOKS}/${playbook.id}/publish`, undefined],
        ['POST', `${PLAYBOOKS}/${playbook.id}/execute`, {}],
        ['DELETE', `${PLAYBOOKS}/${playbook.id}`, undefined],
      ] as const;
      for (const [method, path, body] of writes) {
        expect((await client.request(method, path, body, viewer.auth)).status, `${method} ${path}`).toBe(403);
      }
    });

    it('takes API keys with the scopes of the route table', async () => {
      const [reader, writer, analyst] = await Promise.all([
        apiKeyHeaders(client, admin, ['incidents:read']),
        apiKeyHeaders(client, admin, ['incidents:write']),
        apiKeyHeaders(client, admin, ['analytics:read']),
      ]);
      expect((await client.request('POST', PLAYBOOKS, { title: 't', steps: STEPS }, reader)).status).toBe(403);
      const made = await client.request('POST', PLAYBOOKS, { title: 'from a key', steps: STEPS }, writer);
      expect(made.status).toBe(201);
      expect((await client.request('GET', `${PLAYBOOKS}/${made.body.data.id}`, undefined, reader)).status).toBe(200);
      expect((await client.request('GET', `${PLAYBOOKS}/${made.body.data.id}`, undefined, writer)).status).toBe(403);
      expect((await client.request('GET', `${PLAYBOOKS}/stats`, undefined, reader)).status).toBe(403);
      expect((await client.request('GET', `${PLAYBOOKS}/stats`, undefined, analyst)).status).toBe(200);
      expect((await client.request('GET', PLAYBOOKS)).status).toBe(401);
    });
  });
});
