import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeSignalEvent } from '#lib/signals/store-signal-event.ts';
import { systemScope } from '#lib/identity/scope.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { SIGNALS, drainQueue, getSignal, postSignal, triggerEvent } from './support.ts';
import { CORRELATION_LANES } from '#lib/signals/correlation-lane.ts';

describe('signal deduplication', () => {
  let client: TestClient;
  let admin: SignedIn;
  let workspaceId: string;

  let counter = 0;
  const unique = (label: string): string => `${label} ${(counter += 1)}`;

  const rawItem = async (signalId: string) => {
    const { table } = client.stack.ports;
    const { Item } = await table.doc.send(
      new GetCommand({ TableName: table.name, Key: { pk: `WS#${workspaceId}#SIG`, sk: signalId } }),
    );
    return Item;
  };

  const stats = async () => (await client.request('GET', `${SIGNALS}/stats`, undefined, admin.auth)).body.data;

  beforeAll(async () => {
    client = await startTestStack();
    admin = await signUpBusiness(client);
    workspaceId = admin.user.businessId!;
  });
  afterAll(() => client.stack.stop());

  describe('through POST /signals', () => {
    it('merges the same signal posted twice: one signal, occurrences 2, deduplicated true', async () => {
      const body = { name: unique('Disk full'), source: 'nagios', severity: 'HIGH', serviceId: 'db' };
      const first = await postSignal(client, admin.auth, body);
      const second = await postSignal(client, admin.auth, { ...body, value: 99, metadata: { note: 'later' } });
      expect(second).toEqual({ id: first.id, status: 'OPEN', createdAt: first.createdAt, deduplicated: true });

      const signal = await getSignal(client, admin.auth, first.id);
      expect(signal.occurrences).toBe(2);
      expect(signal.firstSeenAt).toBe(first.createdAt);
      expect(signal.lastSeenAt >= signal.firstSeenAt).toBe(true);
      // The first event's fields stay; a merge counts the repeat.
      expect(signal.metadata).toEqual({});
    });

    it('keeps signals apart by serviceId, source and type; metadata.fingerprint overrides the name', async () => {
      const name = unique('Latency');
      const base = { name, source: 'nagios', severity: 'LOW' };
      const ids = new Set<string>();
      for (const body of [
        base,
        { ...base, serviceId: 'api' },
        { ...base, source: 'zabbix' },
        { ...base, type: 'metric' },
      ]) {
        const stored = await postSignal(client, admin.auth, body);
        expect(stored.deduplicated).toBe(false);
        ids.add(stored.id);
      }
      expect(ids.size).toBe(4);

      const fingerprint = unique('fp');
      const a = await postSignal(client, admin.auth, { ...base, name: 'one wording', metadata: { fingerprint } });
      const b = await postSignal(client, admin.auth, { ...base, name: 'another wording', metadata: { fingerprint } });
      expect(b).toMatchObject({ id: a.id, deduplicated: true });
    });

    it('merges into ACKNOWLEDGED and SUPPRESSED signals, and starts a new signal after RESOLVED', async () => {
      const body = { name: unique('Queue backlog'), source: 'rabbit', severity: 'MEDIUM' };
      const { id } = await postSignal(client, admin.auth, body);
      await client.request('PATCH', `${SIGNALS}/${id}/acknowledge`, {}, admin.auth);
      expect(await postSignal(client, admin.auth, body)).toMatchObject({
        id,
        status: 'ACKNOWLEDGED',
        deduplicated: true,
      });
      await client.request('PATCH', `${SIGNALS}/${id}/suppress`, {}, admin.auth);
      expect(await postSignal(client, admin.auth, body)).toMatchObject({
        id,
        status: 'SUPPRESSED',
        deduplicated: true,
      });
      expect((await getSignal(client, admin.auth, id)).occurrences).toBe(3);

      expect((await client.request('PATCH', `${SIGNALS}/${id}/resolve`, {}, admin.auth)).status).toBe(200);
      const next = await postSignal(client, admin.auth, body);
      expect(next).toMatchObject({ status: 'OPEN', deduplicated: false });
      expect(next.id).not.toBe(id);
      expect(await postSignal(client, admin.auth, body)).toMatchObject({ id: next.id, deduplicated: true });
      expect((await getSignal(client, admin.auth, id)).status).toBe('RESOLVED');
    });

    it('stores 20 concurrent posts of one signal as one signal with occurrences 20', async () => {
      const body = { name: unique('Thundering herd'), source: 'loadgen', severity: 'HIGH' };
      const replies = await Promise.all(
        Array.from({ length: 20 }, () => client.request('POST', SIGNALS, body, admin.auth)),
      );
      expect(replies.map((reply) => reply.status)).toEqual(Array(20).fill(201));
      const ids = new Set(replies.map((reply) => reply.body.data.id));
      expect(ids.size).toBe(1);
      expect(replies.filter((reply) => reply.body.data.deduplicated === false)).toHaveLength(1);
      expect((await getSignal(client, admin.auth, [...ids][0])).occurrences).toBe(20);

      const listed = await client.request('GET', `${SIGNALS}?source=loadgen`, undefined, admin.auth);
      expect(listed.body.total).toBe(1);
    });
  });

  describe('storeSignalEvent', () => {
    it('stores 20 concurrent stores of one event as one signal with occurrences 20', async () => {
      const before = await stats();
      const event = triggerEvent({ name: unique('Concurrent') }, unique('concurrent-fp'));
      const results = await Promise.all(
        Array.from({ length: 20 }, () => storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event })),
      );
      const ids = new Set(results.map((result) => result.signalId));
      expect(ids.size).toBe(1);
      expect(results.filter((result) => !result.deduplicated)).toHaveLength(1);
      expect(results.every((result) => !result.queued && !result.resolved)).toBe(true);
      const signal = await getSignal(client, admin.auth, [...ids][0]!);
      expect(signal).toMatchObject({
        occurrences: 20,
        status: 'OPEN',
        name: event.signal.name,
        type: 'alert',
        severity: 'HIGH',
      });
      expect((await stats()).total).toBe(before.total + 1);
    });

    it('counts a delivery once however often it is retried, also concurrently', async () => {
      const event = triggerEvent({ name: unique('Delivered') }, unique('delivery-fp'));
      const delivery = { sender: 'codehost-a', id: unique('delivery') };
      const first = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event, delivery });
      expect(first).toEqual({ signalId: expect.any(String), deduplicated: false, resolved: false, queued: false });
      const retry = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event, delivery });
      expect(retry).toEqual({ signalId: first.signalId, deduplicated: true, resolved: false, queued: false });
      expect((await getSignal(client, admin.auth, first.signalId)).occurrences).toBe(1);

      // Another delivery of the same event is a repeat of the problem, so it merges.
      const other = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), {
        event,
        delivery: { ...delivery, id: unique('delivery') },
      });
      expect(other).toMatchObject({ signalId: first.signalId, deduplicated: true });
      expect((await getSignal(client, admin.auth, first.signalId)).occurrences).toBe(2);

      const burst = { sender: 'paging', id: unique('burst') };
      const concurrentEvent = triggerEvent({ name: unique('Burst') }, unique('burst-fp'));
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event: concurrentEvent, delivery: burst }),
        ),
      );
      expect(new Set(results.map((result) => result.signalId)).size).toBe(1);
      expect((await getSignal(client, admin.auth, results[0]!.signalId)).occurrences).toBe(1);
    });

    it('resolves the open signal of a resolving event, so the next episode starts a new signal', async () => {
      const fingerprint = unique('resolve-fp');
      const trigger = triggerEvent({ name: unique('Alert') }, fingerprint);
      const opened = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event: trigger });
      const resolve = { ...trigger, action: 'resolve' as const };
      const resolved = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event: resolve });
      expect(resolved).toEqual({ signalId: opened.signalId, deduplicated: true, resolved: true, queued: false });
      expect(await getSignal(client, admin.auth, opened.signalId)).toMatchObject({
        status: 'RESOLVED',
        occurrences: 1,
        resolvedAt: expect.any(String),
      });

      const nextEpisode = {
        ...trigger,
        signal: { ...trigger.signal, triggeredAt: new Date(Date.now() + 60_000).toISOString() },
      };
      const reopened = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event: nextEpisode });
      expect(reopened).toMatchObject({ deduplicated: false });
      expect(reopened.signalId).not.toBe(opened.signalId);
    });

    it('answers a re-sent trigger and resolve of an ended episode with its signal, counting nothing', async () => {
      const trigger = triggerEvent({ name: unique('Replayed') }, unique('replay-fp'));
      const opened = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event: trigger });
      await storeSignalEvent(systemScope(workspaceId, client.stack.ports), {
        event: { ...trigger, action: 'resolve' },
      });
      const before = await stats();

      const again = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event: trigger });
      const resolvedAgain = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), {
        event: { ...trigger, action: 'resolve' },
      });
      expect(again).toEqual({ signalId: opened.signalId, deduplicated: true, resolved: false, queued: false });
      expect(resolvedAgain).toEqual({ signalId: opened.signalId, deduplicated: true, resolved: false, queued: false });
      expect(await stats()).toEqual(before);
      expect(await getSignal(client, admin.auth, opened.signalId)).toMatchObject({
        status: 'RESOLVED',
        occurrences: 1,
      });
    });

    it('keeps a resolve with no open signal as a RESOLVED signal of its own (resolved false)', async () => {
      const before = await stats();
      const orphan = { ...triggerEvent({ name: unique('Orphan') }, unique('orphan-fp')), action: 'resolve' as const };
      const stored = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event: orphan });
      expect(stored).toMatchObject({ deduplicated: false, resolved: false, queued: false });
      expect(await getSignal(client, admin.auth, stored.signalId)).toMatchObject({
        status: 'RESOLVED',
        occurrences: 1,
      });
      expect(await stats()).toMatchObject({
        total: before.total + 1,
        resolved: before.resolved + 1,
        open: before.open,
      });

      const again = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event: orphan });
      expect(again).toEqual({ signalId: stored.signalId, deduplicated: true, resolved: false, queued: false });
      expect(await stats()).toMatchObject({ total: before.total + 1 });
    });

    it("answers an episode's trigger that arrives after its resolve with the resolved signal", async () => {
      const trigger = triggerEvent({ name: unique('Late trigger') }, unique('late-fp'));
      const resolvedFirst = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), {
        event: { ...trigger, action: 'resolve' },
      });
      const before = await stats();
      const late = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event: trigger });
      expect(late).toEqual({ signalId: resolvedFirst.signalId, deduplicated: true, resolved: false, queued: false });
      expect(await stats()).toEqual(before);
      expect(await getSignal(client, admin.auth, resolvedFirst.signalId)).toMatchObject({ status: 'RESOLVED' });

      const nextEpisode = {
        ...trigger,
        signal: { ...trigger.signal, triggeredAt: new Date(Date.now() + 60_000).toISOString() },
      };
      const opened = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event: nextEpisode });
      expect(opened).toMatchObject({ deduplicated: false });
      expect(await getSignal(client, admin.auth, opened.signalId)).toMatchObject({ status: 'OPEN' });
    });

    it('stores record events at LOW severity and never queues them for correlation; triggers are queued and pending', async () => {
      for (const lane of CORRELATION_LANES) await drainQueue(client.stack.queues, lane);
      const record = {
        ...triggerEvent({ name: unique('Push'), type: 'push', severity: 'HIGH' }, unique('push-fp')),
        action: 'record' as const,
      };
      const recorded = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event: record });
      expect(await getSignal(client, admin.auth, recorded.signalId)).toMatchObject({ severity: 'LOW', status: 'OPEN' });
      expect((await rawItem(recorded.signalId))?.gsi3pk).toBeUndefined();

      const trigger = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), {
        event: triggerEvent({ name: unique('Page') }, unique('page-fp')),
      });
      expect(await rawItem(trigger.signalId)).toMatchObject({
        gsi3pk: `WS#${workspaceId}#SIG#PENDING`,
        gsi3sk: trigger.signalId,
      });
      // A merge is not queued again: the signal already waits for correlation.
      const { fingerprint } = await getSignal(client, admin.auth, trigger.signalId);
      const merged = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), {
        event: triggerEvent({}, fingerprint),
      });
      expect(merged).toMatchObject({ signalId: trigger.signalId, deduplicated: true });

      const queued = (await Promise.all(CORRELATION_LANES.map((lane) => drainQueue(client.stack.queues, lane))))
        .flat()
        .map((body) => JSON.parse(body));
      expect(queued).toEqual([{ workspaceId, signalId: trigger.signalId }]);
    });
  });
});
