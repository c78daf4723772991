import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemAccountScope } from '#lib/identity/scope.ts';
import type { Incident } from '#lib/incidents/incident.ts';
import { INCIDENT_COUNTER } from '#lib/incidents/incident-counter.ts';
import { incidentPartition, incidentToItem } from '#lib/incidents/incident-item.ts';
import { addToListCounter, recountList } from '#lib/store/list-counters.ts';
import type { Signal } from '#lib/signals/signal.ts';
import { newSignalDelta } from '#lib/signals/signal-counter.ts';
import { signalCounterRepository } from '#lib/signals/signal-counter-repository.ts';
import { signalToItem } from '#lib/signals/signal-item.ts';
import { batchPutItems } from '#lib/store/batch.ts';
import { recountCounters } from '#lib/counters/recount-counters.ts';
import { runFields, runItemKey } from '#lib/pipelines/pipeline-run-item.ts';
import type { Problem } from '#lib/problems/problem.ts';
import { problemToItem } from '#lib/problems/problem-repository.ts';
import { recordHistory } from '#lib/tickets/history-repository.ts';
import { type SignedIn, signUpBusiness } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

/**
 * What a list costs at the table, counted on the local table's client as bench/run.ts counts: page 1 and
 * page 50 read the same number of whole items, and no list runs a COUNT however long it is.
 */
const ITEMS = 1_050;
const LIMIT = 20;
const SIGNALS = '/api/v1/signals';
const INCIDENTS = '/api/v1/incident-ticket';

interface Cost {
  queries: number;
  counts: number;
  wholeItems: number;
  keysOnly: number;
}

let client: TestClient;
let admin: SignedIn;
let other: SignedIn;
let cost: Cost;
let seeded: Promise<void> | undefined;

const sum = (deltas: Record<string, number>[]): Record<string, number> => {
  const total: Record<string, number> = {};
  for (const delta of deltas)
    for (const [name, value] of Object.entries(delta)) total[name] = (total[name] ?? 0) + value;
  return total;
};

const seed = async (workspaceId: string) => {
  const { table, ids } = client.stack.ports;
  const at = '2026-11-23T10:00:00.000Z';
  const signals = Array.from(
    { length: ITEMS },
    (_unused, index): Signal => ({
      id: ids.sortable(),
      name: `Signal ${index}`,
      source: index % 2 ? 'metrics' : 'logs',
      type: 'alert',
      severity: index % 3 ? 'HIGH' : 'LOW',
      status: 'OPEN',
      serviceId: null,
      value: null,
      metadata: {},
      triggeredAt: at,
      fingerprint: `fp-${index}`,
      occurrences: 1,
      firstSeenAt: at,
      lastSeenAt: at,
      incidentId: null,
      notes: [],
      acknowledgedAt: null,
      resolvedAt: null,
      suppressedAt: null,
      createdAt: at,
      updatedAt: at,
    }),
  );
  const incidents = Array.from(
    { length: ITEMS },
    (_unused, index): Incident => ({
      id: `INC-20261123-${String(index + 1).padStart(4, '0')}`,
      ticketId: `INC-20261123-${String(index + 1).padStart(4, '0')}`,
      businessId: workspaceId,
      summary: `Incident ${index}`,
      priority: 'HIGH',
      status: 'OPEN',
      environment: 'prod',
      createdAt: at,
      updatedAt: at,
      createdBy: 'seed',
    }),
  );
  await batchPutItems(table, [
    ...signals.map((signal) => signalToItem(workspaceId, signal, 'record', { metadataJson: '{}' })),
    ...incidents.map((incident) => incidentToItem(workspaceId, incident)),
  ]);
  await signalCounterRepository(table, workspaceId).addToSignalCounter(sum(signals.map(newSignalDelta)));
  await recountList(table, workspaceId, INCIDENT_COUNTER, incidentPartition(workspaceId));
};

beforeAll(async () => {
  client = await startTestStack();
  [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client)]);
  await seed(admin.user.businessId ?? '');
  client.stack.ports.table.doc.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName !== 'QueryCommand') return result;
      const input = args.input as { Select?: string; ProjectionExpression?: string };
      const items = ((result.output as { Items?: unknown[] }).Items ?? []).length;
      cost.queries += 1;
      if (input.Select === 'COUNT') cost.counts += 1;
      else if (input.ProjectionExpression) cost.keysOnly += items;
      else cost.wholeItems += items;
      return result;
    },
    { step: 'initialize', name: 'listCostCounter' },
  );
}, 120_000);

afterAll(async () => {
  await client?.stack.stop();
});

const list = async (path: string, auth = admin.auth) => {
  cost = { queries: 0, counts: 0, wholeItems: 0, keysOnly: 0 };
  const reply = await client.request('GET', path, undefined, auth);
  return { reply, cost };
};

describe.each([
  { path: SIGNALS, paging: (body: any) => body },
  { path: INCIDENTS, paging: (body: any) => body.meta },
])('$path', ({ path, paging }) => {
  it('reads as many whole items on page 50 as on page 1, and counts nothing', async () => {
    const first = await list(`${path}?limit=${LIMIT}`);
    const fiftieth = await list(`${path}?limit=${LIMIT}&page=50`);
    for (const { reply } of [first, fiftieth]) {
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.data).toHaveLength(LIMIT);
      expect(paging(reply.body).total).toBe(ITEMS);
    }
    expect(first.cost).toEqual({ queries: 1, counts: 0, wholeItems: LIMIT, keysOnly: 0 });
    expect(fiftieth.cost.counts).toBe(0);
    expect(fiftieth.cost.wholeItems).toBe(LIMIT);
    expect(fiftieth.cost.keysOnly).toBe(49 * LIMIT);
  });

  it('resumes from nextCursor where the page ended, reading no key before it', async () => {
    const byPage = await list(`${path}?limit=${LIMIT}&page=50`);
    const before = await list(`${path}?limit=${LIMIT}&page=49&cursor=`);
    const cursor = paging(before.reply.body).nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const resumed = await list(`${path}?limit=${LIMIT}&cursor=${cursor}`);
    expect(resumed.reply.status, resumed.reply.text).toBe(200);
    expect(resumed.reply.body.data).toEqual(byPage.reply.body.data);
    expect(paging(resumed.reply.body).page).toBe(50);
    expect(resumed.cost).toEqual({ queries: 1, counts: 0, wholeItems: LIMIT, keysOnly: 0 });
    const last = await list(`${path}?limit=${LIMIT}&page=53&cursor=`);
    expect(last.reply.body.data).toHaveLength(ITEMS - 52 * LIMIT);
    expect(paging(last.reply.body).nextCursor).toBeNull();
  });

  it('refuses a cursor of another list or workspace, or a forged one, naming cursor', async () => {
    const issued = await list(`${path}?limit=${LIMIT}&cursor=`);
    const cursor = paging(issued.reply.body).nextCursor;
    const forged = Buffer.from(JSON.stringify({ list: 'x', key: {}, offset: 0 })).toString('base64url');
    for (const [query, auth] of [
      [`cursor=${cursor}`, other.auth],
      [`cursor=${cursor}&status=RESOLVED`, admin.auth],
      [`cursor=${forged}`, admin.auth],
      ['cursor=not%20base64', admin.auth],
    ] as const) {
      const { reply } = await list(`${path}?${query}`, auth);
      expect(reply.status, query).toBe(400);
      expect(reply.body.errors, query).toEqual([expect.stringMatching(/^cursor: /)]);
    }
  });
});

describe('the counter recount', () => {
  it('puts drifted totals right from the items', async () => {
    const workspaceId = admin.user.businessId ?? '';
    const { table } = client.stack.ports;
    await signalCounterRepository(table, workspaceId).addToSignalCounter({ total: 7, 'status#OPEN': -3 });
    await addToListCounter(table, workspaceId, INCIDENT_COUNTER, { total: -2 });
    await recountCounters(systemAccountScope(client.stack.ports));
    const signals = await list(`${SIGNALS}?status=OPEN&limit=1`);
    const incidents = await list(`${INCIDENTS}?limit=1`);
    expect(signals.reply.body.total).toBe(ITEMS);
    expect(incidents.reply.body.meta.total).toBe(ITEMS);
  });
});

/**
 * The other lists, and signals and incidents under the filters gsi4 serves, each seeded with 1,050 items
 * of its own, then recounted. Limits leave a short last page: a full one still answers a `nextCursor`.
 */
const HISTORY_TICKET = 'INC-20261123-0001';

const seedOthers = async (workspaceId: string) => {
  const { table, ids, clock } = client.stack.ports;
  const at = '2026-11-23T10:00:00.000Z';
  const problems = Array.from(
    { length: ITEMS },
    (_unused, index): Problem => ({
      id: ids.sortable(),
      title: `Problem ${index}`,
      description: 'seeded',
      rootCause: null,
      workaround: null,
      serviceArea: null,
      priority: 'HIGH',
      status: 'OPEN',
      relatedIncidentIds: [],
      assignedToEmail: null,
      createdAt: at,
      updatedAt: at,
    }),
  );
  const runs = Array.from({ length: ITEMS }, (_unused, index) => {
    const runKey = `codehost_a-${index}`;
    const startedAt = new Date(Date.parse(at) + index * 1000).toISOString();
    return {
      ...runItemKey(workspaceId, runKey),
      ...runFields(workspaceId, {
        runKey,
        provider: 'codehost_a',
        providerRunId: String(index),
        scope: 'run',
        repository: 'acme/api',
        branch: 'main',
        commitSha: null,
        commitMessage: null,
        triggeredBy: null,
        status: 'success',
        startedAt,
        finishedAt: null,
        durationSeconds: null,
        jobs: [],
        updatedAt: startedAt,
        rawPayload: {},
      }),
      createdAt: startedAt,
      updatedAt: startedAt,
      providerUpdatedAt: startedAt,
      jobs: {},
    };
  });
  await batchPutItems(table, [...problems.map((problem) => problemToItem(workspaceId, problem)), ...runs]);
  await recordHistory(
    { table, ids, clock },
    workspaceId,
    Array.from({ length: ITEMS }, () => ({
      ticketId: HISTORY_TICKET,
      ticketType: 'INCIDENT' as const,
      event: 'COMMENT_ADDED' as const,
      actor: 'seed',
    })),
  );
  await recountCounters(systemAccountScope(client.stack.ports));
};

const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

describe.each([
  {
    path: `${SIGNALS}?severity=HIGH`,
    paging: (body: any) => body,
    total: 700,
    limit: 12,
    otherFilter: 'status=RESOLVED',
  },
  {
    path: `${INCIDENTS}?environment=prod`,
    paging: (body: any) => body.meta,
    total: ITEMS,
    limit: LIMIT,
    otherFilter: 'priority=LOW',
  },
  {
    path: '/api/v1/problems',
    paging: (body: any) => body.meta,
    total: ITEMS,
    limit: LIMIT,
    otherFilter: 'status=RESOLVED',
  },
  {
    path: '/api/v1/tickets',
    paging: (body: any) => body.meta,
    total: 2 * ITEMS,
    limit: 19,
    otherFilter: 'type=PROBLEM',
  },
  {
    path: '/api/v1/tickets/history',
    paging: (body: any) => body.meta,
    total: ITEMS,
    limit: LIMIT,
    otherFilter: 'ticketId=x',
  },
  {
    path: `/api/v1/tickets/history?ticketId=${HISTORY_TICKET}&from=2020-01-01&to=2099-12-31`,
    paging: (body: any) => body.meta,
    total: ITEMS,
    limit: LIMIT,
    otherFilter: 'from=2020-01-02',
  },
  {
    path: '/api/v1/pipelines',
    paging: (body: any) => body.pagination,
    total: ITEMS,
    limit: LIMIT,
    otherFilter: 'status=failure',
  },
])('$path', ({ path, paging, total, limit, otherFilter }) => {
  beforeAll(async () => {
    if (seeded === undefined) seeded = seedOthers(admin.user.businessId ?? '');
    await seeded;
  }, 120_000);

  it('reads as many whole items on page 50 as on page 1, and counts nothing', async () => {
    const first = await list(withQuery(path, `limit=${limit}`));
    const fiftieth = await list(withQuery(path, `limit=${limit}&page=50`));
    for (const { reply } of [first, fiftieth]) {
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.data.runs ?? reply.body.data).toHaveLength(limit);
      expect(paging(reply.body).total).toBe(total);
    }
    expect(first.cost).toEqual({ queries: 1, counts: 0, wholeItems: limit, keysOnly: 0 });
    expect(fiftieth.cost).toEqual({ queries: 2, counts: 0, wholeItems: limit, keysOnly: 49 * limit });
  });

  it('resumes from nextCursor, and ends with a null one', async () => {
    const byPage = await list(withQuery(path, `limit=${limit}&page=50`));
    const before = await list(withQuery(path, `limit=${limit}&page=49&cursor=`));
    const cursor = paging(before.reply.body).nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const resumed = await list(withQuery(path, `limit=${limit}&cursor=${cursor}`));
    expect(resumed.reply.status, resumed.reply.text).toBe(200);
    expect(resumed.reply.body.data).toEqual(byPage.reply.body.data);
    expect(paging(resumed.reply.body).page).toBe(50);
    expect(resumed.cost).toEqual({ queries: 1, counts: 0, wholeItems: limit, keysOnly: 0 });
    const lastPage = Math.ceil(total / limit);
    const last = await list(withQuery(path, `limit=${limit}&page=${lastPage}&cursor=`));
    expect(last.reply.body.data.runs ?? last.reply.body.data).toHaveLength(total - (lastPage - 1) * limit);
    expect(paging(last.reply.body).nextCursor).toBeNull();
  });

  it('refuses a cursor of another list or workspace, or a forged one, naming cursor', async () => {
    const issued = await list(withQuery(path, `limit=${limit}&cursor=`));
    const cursor = paging(issued.reply.body).nextCursor;
    const forged = Buffer.from(JSON.stringify({ list: 'x', key: {}, offset: 0 })).toString('base64url');
    for (const [query, auth] of [
      [`cursor=${cursor}`, other.auth],
      [`cursor=${cursor}&${otherFilter}`, admin.auth],
      [`cursor=${forged}`, admin.auth],
    ] as const) {
      const { reply } = await list(withQuery(path, query), auth);
      expect(reply.status, query).toBe(400);
      expect(reply.body.errors, query).toEqual([expect.stringMatching(/^cursor: /)]);
    }
  });
});
