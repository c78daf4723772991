import { expect } from 'vitest';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { only, RECEIVED_AT } from '../support.ts';

/** What each alerting and paging sender's real payloads must give. */
export const ALERTING_EXPECTATIONS: Record<string, (events: NormalizedEvent[]) => void> = {
  'metrics-alerts/captured-firing-2alerts.json': (events) => {
    expect(events).toHaveLength(2);
    expect(events.map((event) => event.fingerprint)).toEqual(['b510a84dff31ff97', '9da38cac2b14ad00']);
    for (const event of events) {
      expect(event).toMatchObject({
        action: 'trigger',
        signal: {
          name: 'DiskFull',
          type: 'alert',
          severity: 'MEDIUM',
          serviceId: 'node',
          triggeredAt: '2026-11-22T01:50:26.000Z',
        },
      });
      // Go's zero time is "not ended", not an end.
      expect(event.signal.metadata).not.toHaveProperty('endsAt');
    }
    expect(events[0]?.signal.metadata).toMatchObject({
      labels: { instance: 'db-1' },
      summary: 'Disk almost full on db-1',
    });
    expect(events[1]?.signal.metadata).toMatchObject({
      labels: { instance: 'db-2' },
      summary: 'Disk almost full on db-2',
    });
  },
  'metrics-alerts/captured-request-with-headers.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'd0c296e49fc4ad26',
      signal: {
        name: 'HighLatency',
        severity: 'HIGH',
        serviceId: 'api',
        // Nanoseconds, cut to milliseconds.
        triggeredAt: '2026-11-22T02:00:16.633Z',
        // `\u003e` on the wire.
        metadata: { description: 'p99 > 2s for 5m', originalSeverity: 'critical', externalUrl: 'http://vm:19093' },
      },
    });
  },
  'metrics-alerts/captured-resolved.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'resolve',
      fingerprint: 'd0c296e49fc4ad26',
      signal: { type: 'alert', metadata: { status: 'resolved', endsAt: '2026-11-22T02:00:26.000Z' } },
    });
  },
  'metrics-alerts/captured.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'd0c296e49fc4ad26',
      signal: { name: 'HighLatency', type: 'alert', severity: 'HIGH', serviceId: 'api' },
    });
  },
  'monitoring/default-payload-template.json': (events) => {
    // The default template as published: variables not substituted, `event_type` for the spec's `type`.
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'title|$EVENT_TITLE',
      signal: {
        name: '$EVENT_TITLE',
        type: 'alert',
        severity: 'MEDIUM',
        triggeredAt: RECEIVED_AT.toISOString(),
        metadata: { eventId: '$ID', eventType: '$EVENT_TYPE', message: '$EVENT_MSG', organization: '$ORG_NAME' },
      },
    });
  },
  'orchestrator/core.v1.Event.json': (events) => {
    // Placeholder values: `typeValue` is neither Warning nor Normal, so it is only recorded.
    expect(only(events)).toMatchObject({
      action: 'record',
      fingerprint: 'kindValue|namespaceValue|nameValue|reasonValue',
      signal: {
        type: 'k8s_event',
        severity: 'LOW',
        metadata: { message: 'messageValue', reportingComponent: 'reportingComponentValue', host: 'hostValue' },
      },
    });
  },
  'orchestrator/event-02-Normal-Scheduled-Pod.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      fingerprint: 'Pod|default|px-5d567cc74c-ss4lb|Scheduled',
      signal: {
        name: 'Scheduled: Pod default/px-5d567cc74c-ss4lb',
        severity: 'LOW',
        // `lastTimestamp` is null in events written through events.k8s.io: `eventTime` it is.
        triggeredAt: '2021-05-19T09:42:58.638Z',
        metadata: { reportingComponent: 'default-scheduler', eventType: 'Normal' },
      },
    });
  },
  'orchestrator/event-09-Normal-Killing-Pod.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      fingerprint: 'Pod|default|px-7df978b9bf-jm22q|Killing',
      signal: {
        triggeredAt: '2021-05-19T09:43:06.000Z',
        metadata: {
          message: 'Stopping container podinfo',
          fieldPath: 'spec.containers{podinfo}',
          reportingComponent: 'kubelet',
        },
      },
    });
  },
  'orchestrator/events.k8s.io.v1.Event.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      fingerprint: 'kindValue|namespaceValue|nameValue|reasonValue',
      signal: {
        metadata: {
          message: 'noteValue',
          reportingComponent: 'reportingControllerValue',
          apiVersion: 'events.k8s.io/v1',
        },
      },
    });
  },
  'paging/go-pagerduty-signed-vector.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'PGR0VU2',
      signal: {
        name: 'A little bump in the road',
        type: 'incident',
        severity: 'HIGH',
        metadata: { priority: 'P1', webhookVersion: 'v3' },
      },
    });
  },
  'paging/triggered_v3.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'PFQZPSY',
      signal: {
        name: 'Test Incident 3',
        type: 'incident',
        // No priority: the urgency decides.
        severity: 'HIGH',
        serviceId: 'pig208',
        triggeredAt: '2021-06-04T13:35:29.781Z',
        metadata: { incidentUrl: 'https://pig208.pagerduty.com/incidents/PFQZPSY', event: 'incident.triggered' },
      },
    });
  },
  'paging/v2-01-incident_trigger.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'PRORDTY',
      signal: {
        name: 'My new incident',
        type: 'incident',
        severity: 'HIGH',
        serviceId: 'Production XDB Cluster',
        triggeredAt: '2017-09-26T15:14:36.000Z',
        metadata: { webhookVersion: 'v2', incidentNumber: 33, assignees: ['Laura Haley'] },
      },
    });
  },
  'paging/v2-03-incident_resolve.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'resolve',
      fingerprint: 'PRORDTY',
      signal: { type: 'incident', metadata: { status: 'resolved', event: 'incident.resolve' } },
    });
  },
  'paging/v3-02-webhook_payload.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'PGR0VU2',
      signal: {
        severity: 'HIGH',
        metadata: { event: 'incident.priority_updated', incidentKey: 'd3640fbd41094207a1c11e58e46b1662' },
      },
    });
  },
  // Confirmations carry no event: the route confirms them before any normalizing.
};
