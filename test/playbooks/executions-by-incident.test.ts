import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBusiness } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { EXECUTIONS, playbookApi } from './helpers.ts';

describe('GET /playbooks/executions/list?incidentId=', () => {
  let client: TestClient;
  let api: ReturnType<typeof playbookApi>;

  beforeAll(async () => {
    client = await startTestStack();
    api = playbookApi(client);
  });
  afterAll(() => client.stack.stop());

  it("lists an incident's executions directly, with a status filter, and never another workspace's", async () => {
    const [ours, theirs] = await Promise.all([
      signUpBusiness(client, { businessName: 'Incident Runs' }),
      signUpBusiness(client, { businessName: 'Other Runs' }),
    ]);
    const [ourPlaybook, theirPlaybook] = await Promise.all([api.createPublished(ours), api.createPublished(theirs)]);
    const [paged, quiet] = [await api.incident(ours, {}), await api.incident(ours, {})];
    // Ids are numbered per workspace, so the other workspace's first incident has the same id as ours.
    const theirIncident = await api.incident(theirs, {});
    expect(theirIncident.id).toBe(paged.id);
    await api.execute(theirs, theirPlaybook.id, { incidentId: theirIncident.id });
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      ids.push((await api.execute(ours, ourPlaybook.id, { incidentId: paged.id })).executionId);
      await api.execute(ours, ourPlaybook.id);
    }
    await api.cancel(ours, ids[2] as string);
    const list = (query: string) => client.request('GET', `${EXECUTIONS}/list${query}`, undefined, ours.auth);
    const executionIds = (reply: { body: { data: { executionId: string }[] } }) =>
      reply.body.data.map((execution) => execution.executionId);

    const all = await list(`?incidentId=${paged.id}`);
    expect(executionIds(all)).toEqual([...ids].reverse());
    expect(all.body.meta).toEqual({ total: 3, page: 1, limit: 20, totalPages: 1 });
    const second = await list(`?incidentId=${paged.id}&limit=2&page=2`);
    expect(executionIds(second)).toEqual([ids[0]]);
    expect(second.body.meta).toEqual({ total: 3, page: 2, limit: 2, totalPages: 2 });
    const running = await list(`?incidentId=${paged.id}&status=IN_PROGRESS`);
    expect(executionIds(running)).toEqual([ids[1], ids[0]]);
    expect(running.body.meta.total).toBe(2);
    expect((await list(`?incidentId=${paged.id}&status=CANCELLED`)).body.meta.total).toBe(1);
    for (const none of [quiet.id, 'INC-20200101-0001', 'not-an-incident']) {
      const reply = await list(`?incidentId=${none}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.meta.total, none).toBe(0);
    }
    const theirList = await client.request('GET', `${EXECUTIONS}/list?incidentId=${paged.id}`, undefined, theirs.auth);
    expect(theirList.body.data.map((execution: { playbookId: string }) => execution.playbookId)).toEqual([
      theirPlaybook.id,
    ]);
    expect((await list('?incidentId=')).status).toBe(400);
  });
});
