/** The orchestrator's, paging tools' and monitors' alerts as problems, from variants of their real payloads. */
import { describe, expect, it } from 'vitest';
import { loadFixture, normalizeOne as one, normalizers, RECEIVED_AT, withFields } from './support.ts';

describe('orchestrator', () => {
  const killing = loadFixture('orchestrator', 'event-09-Normal-Killing-Pod.json').body;

  it('makes a Warning a problem, HIGH for lost work, and merges its recurrences', () => {
    const backOff = withFields(killing, { type: 'Warning', reason: 'BackOff', count: 5 });
    expect(one('orchestrator', backOff)).toMatchObject({
      action: 'trigger',
      fingerprint: 'Pod|default|px-7df978b9bf-jm22q|BackOff',
      signal: { type: 'k8s_warning', severity: 'MEDIUM', metadata: { count: 5 } },
    });
    const again = withFields(backOff, { count: 6, lastTimestamp: '2021-05-19T09:50:00Z', message: 'Back-off again' });
    expect(one('orchestrator', again).fingerprint).toBe('Pod|default|px-7df978b9bf-jm22q|BackOff');
    expect(one('orchestrator', withFields(killing, { type: 'Warning', reason: 'OOMKilling' })).signal.severity).toBe(
      'HIGH',
    );
  });

  it('takes a cluster-scoped object without a namespace', () => {
    const node = {
      type: 'Warning',
      reason: 'NodeNotReady',
      message: 'Node kind-worker status is now: NodeNotReady',
      involvedObject: { kind: 'Node', name: 'kind-worker' },
    };
    expect(one('orchestrator', node)).toMatchObject({
      fingerprint: 'Node||kind-worker|NodeNotReady',
      signal: { name: 'NodeNotReady: Node kind-worker', severity: 'HIGH', triggeredAt: RECEIVED_AT.toISOString() },
    });
  });
});

describe('paging', () => {
  const v3 = loadFixture('paging', 'triggered_v3.json').body;

  it('resolves on a v3 resolve, with the trigger identity', () => {
    const resolved = withFields(v3, { 'event.event_type': 'incident.resolved', 'event.data.status': 'resolved' });
    const trigger = one('paging', v3);
    const resolve = one('paging', resolved);
    expect(resolve.action).toBe('resolve');
    expect([resolve.signal.type, resolve.fingerprint]).toEqual([trigger.signal.type, trigger.fingerprint]);
  });

  it('merges acknowledgements into the open incident and records events after resolution', () => {
    expect(
      one(
        'paging',
        withFields(v3, { 'event.event_type': 'incident.acknowledged', 'event.data.status': 'acknowledged' }),
      ).action,
    ).toBe('trigger');
    const late = one(
      'paging',
      withFields(v3, { 'event.event_type': 'incident.reassigned', 'event.data.status': 'resolved' }),
    );
    expect(late).toMatchObject({ action: 'record', signal: { type: 'incident_update', severity: 'LOW' } });
  });

  it('takes the priority over the urgency', () => {
    const severity = (fields: Record<string, unknown>) => one('paging', withFields(v3, fields)).signal.severity;
    expect(severity({ 'event.data.urgency': 'low' })).toBe('LOW');
    expect(severity({ 'event.data.urgency': 'low', 'event.data.priority': { summary: 'P2' } })).toBe('HIGH');
    expect(severity({ 'event.data.urgency': 'high', 'event.data.priority': { summary: 'P3' } })).toBe('MEDIUM');
  });

  it('gives one event per v2 message', () => {
    const trigger = loadFixture('paging', 'v2-01-incident_trigger.json').body as { messages: unknown[] };
    const resolve = loadFixture('paging', 'v2-03-incident_resolve.json').body as { messages: unknown[] };
    const events = normalizers.paging({ messages: [...trigger.messages, ...resolve.messages] }, {}, RECEIVED_AT);
    expect(events.map((event) => [event.action, event.fingerprint])).toEqual([
      ['trigger', 'PRORDTY'],
      ['resolve', 'PRORDTY'],
    ]);
  });

  it('records v3 events about other resources, naming their incident', () => {
    const note = {
      event: {
        id: 'e2',
        event_type: 'incident.annotated',
        resource_type: 'incident',
        occurred_at: '2024-01-01T00:00:00Z',
        data: { type: 'incident_note', id: 'N1', incident: { id: 'PGR0VU2', summary: 'A little bump in the road' } },
      },
    };
    expect(one('paging', note)).toMatchObject({
      action: 'record',
      fingerprint: 'incident.annotated|PGR0VU2',
      signal: { type: 'incident.annotated', metadata: { incidentId: 'PGR0VU2' } },
    });
  });
});

describe('monitoring', () => {
  const template = loadFixture('monitoring', 'default-payload-template.json').raw;
  /** The default template with the documented example values (monitoring/README.md) substituted. */
  const substituted = (title: string, extra: Record<string, unknown> = {}) => ({
    ...(JSON.parse(
      template
        .replace('$EVENT_MSG', 'Memory usage above 90% on host:web-1')
        .replace('$LAST_UPDATED', '1406662672000')
        .replace('$EVENT_TYPE', 'metric_alert_monitor')
        .replace('$EVENT_TITLE', title)
        .replace('$DATE', '1406662672000')
        .replace('$ORG_ID', '11')
        .replace('$ORG_NAME', 'Acme')
        .replace('$ID', '1234'),
    ) as Record<string, unknown>),
    ...extra,
  });

  it('triggers on [Triggered] and resolves on [Recovered], with one identity', () => {
    const triggered = one('monitoring', substituted('[Triggered] [Memory Alert]'));
    const recovered = one('monitoring', substituted('[Recovered] [Memory Alert]'));
    expect(triggered).toMatchObject({
      action: 'trigger',
      fingerprint: 'title|[Memory Alert]',
      signal: {
        name: '[Memory Alert]',
        severity: 'MEDIUM',
        triggeredAt: '2014-07-29T19:37:52.000Z',
        metadata: { transition: 'Triggered', eventType: 'metric_alert_monitor', organization: 'Acme' },
      },
    });
    expect(recovered.action).toBe('resolve');
    expect([recovered.signal.type, recovered.fingerprint]).toEqual([triggered.signal.type, triggered.fingerprint]);
  });

  it('reads partner-template fields: transition, aggregation key, priorities, tags', () => {
    const event = one(
      'monitoring',
      substituted('[P1] [Triggered] [Memory Alert]', {
        alert_transition: 'Triggered',
        aggreg_key: '9bd4ac313a4d1e8fae2482df7b77628',
        alert_priority: 'P1',
        priority: 'normal',
        tags: 'env:prod, service:checkout',
        link: 'https://app.example.com/event/1234',
      }),
    );
    expect(event).toMatchObject({
      fingerprint: 'aggreg_key|9bd4ac313a4d1e8fae2482df7b77628',
      signal: { severity: 'HIGH', serviceId: 'checkout', metadata: { tags: ['env:prod', 'service:checkout'] } },
    });
    expect(one('monitoring', substituted('[Warn] [Memory Alert]', { priority: 'low' })).signal.severity).toBe('MEDIUM');
    expect(one('monitoring', substituted('Deploy finished', { priority: 'low' })).signal.severity).toBe('LOW');
    expect(
      one('monitoring', substituted('[Recovered] x', { alert_transition: 'Recovered', alert_id: 42 })).fingerprint,
    ).toBe('alert|42|');
  });
});

describe('generic webhook', () => {
  const payload = {
    source: 'nagios',
    title: 'Disk full on db-1',
    severity: 'critical',
    status: 'firing',
    message: '98% used',
    metadata: { host: 'db-1', service: 'db' },
    timestamp: '2024-03-01T12:00:00+01:00',
  };

  it('maps the canonical payload, keeping the sender and its severity in metadata', () => {
    expect(one('webhook', payload)).toEqual({
      signal: {
        name: 'Disk full on db-1',
        source: 'webhook',
        type: 'alert',
        severity: 'HIGH',
        serviceId: 'db',
        metadata: { host: 'db-1', service: 'db', origin: 'nagios', message: '98% used', originalSeverity: 'critical' },
        triggeredAt: '2024-03-01T11:00:00.000Z',
      },
      fingerprint: 'nagios|Disk full on db-1',
      action: 'trigger',
    });
  });

  it('maps every severity and resolves with the firing identity', () => {
    const severities = ['critical', 'high', 'medium', 'low', 'info'].map(
      (severity) => one('webhook', { ...payload, severity }).signal.severity,
    );
    expect(severities).toEqual(['HIGH', 'HIGH', 'MEDIUM', 'LOW', 'LOW']);
    const resolved = one('webhook', { ...payload, status: 'resolved', timestamp: undefined });
    expect(resolved).toMatchObject({ action: 'resolve', fingerprint: 'nagios|Disk full on db-1' });
    expect(resolved.signal.triggeredAt).toBe(RECEIVED_AT.toISOString());
  });

  it('refines the identity with metadata.fingerprint, unambiguously', () => {
    const a = one('webhook', { ...payload, metadata: { fingerprint: 'db-1' } });
    const b = one('webhook', { ...payload, metadata: { fingerprint: 'db-2' } });
    expect(a.fingerprint).toBe('nagios|Disk full on db-1|db-1');
    expect(a.fingerprint).not.toBe(b.fingerprint);
    const tricky = one('webhook', { ...payload, source: 'nagios|Disk full on db-1', title: 'db-1' });
    expect(tricky.fingerprint).not.toBe(a.fingerprint);
  });
});
