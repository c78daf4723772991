import { describe, expect, it } from 'vitest';
import { deliveryIdOf } from '#lib/ingestion/delivery-id.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import { INGESTION_SENDERS } from '#lib/ingestion/senders/index.ts';
import { severityFromLevel, severityFromPriority } from '#lib/ingestion/severity.ts';
import { isGoZeroTime, latestTimestamp, secondsBetween, toIsoTimestamp } from '#lib/ingestion/timestamps.ts';
import { loadFixture } from './support.ts';

describe('deliveryIdOf', () => {
  it('reads each sender its own way', () => {
    const github = loadFixture('codehost-a', 'push.0.json');
    expect(deliveryIdOf('codehost-a', github.headers, github.body)).toBe(github.headers['x-github-delivery']);
    expect(deliveryIdOf('paging', { 'x-webhook-id': 'w-1' }, {})).toBe('w-1');
    const circle = loadFixture('codehost-c', 'docs-01-workflow-completed-github-oauth-bitbucket-cloud.json');
    expect(deliveryIdOf('codehost-c', circle.headers, circle.body)).toBe('3888f21b-eaa7-38e3-8f3d-75a63bba8895');
    expect(deliveryIdOf('paging', {}, { event: { id: 'e-1' } })).toBe('e-1');
    expect(deliveryIdOf('monitoring', {}, { id: 1234 })).toBe('1234');
    const pod = loadFixture('orchestrator', 'event-09-Normal-Killing-Pod.json');
    expect(deliveryIdOf('orchestrator', pod.headers, pod.body)).toBe('c5a00f97-3191-4f3f-a9be-ef7f0f58370e@5361684');
  });

  it('takes code host B Idempotency-Key first, then X-Gitlab-Event-UUID, never X-Gitlab-Webhook-UUID', () => {
    const headers = { 'x-gitlab-event-uuid': 'event-1', 'x-gitlab-webhook-uuid': 'request-1' };
    expect(deliveryIdOf('codehost-b', { ...headers, 'idempotency-key': 'key-1' }, {})).toBe('key-1');
    expect(deliveryIdOf('codehost-b', headers, {})).toBe('event-1');
    expect(deliveryIdOf('codehost-b', { 'x-gitlab-webhook-uuid': 'request-1' }, {})).toBeUndefined();
  });

  it('is undefined for senders without one, and for blank or odd values', () => {
    for (const sender of ['metrics-alerts', 'webhook'] as const) {
      expect(deliveryIdOf(sender, { 'x-github-delivery': 'd', 'x-webhook-id': 'w' }, { id: 'b' })).toBeUndefined();
    }
    expect(deliveryIdOf('codehost-a', { 'x-github-delivery': '  ' }, {})).toBeUndefined();
    expect(deliveryIdOf('codehost-c', {}, { id: 42 })).toBeUndefined();
    expect(deliveryIdOf('codehost-c', {}, null)).toBeUndefined();
    expect(INGESTION_SENDERS.map((sender) => deliveryIdOf(sender, {}, [])).filter(Boolean)).toEqual([]);
  });
});

describe('toIsoTimestamp', () => {
  it.each([
    ['2026-11-22T02:00:16.633313464Z', '2026-11-22T02:00:16.633Z'],
    ['2010-01-01T01:01:01.000010Z', '2010-01-01T01:01:01.000Z'],
    ['2016-08-12 15:23:28 UTC', '2016-08-12T15:23:28.000Z'],
    ['2021-04-28 21:50:00 +0200', '2021-04-28T19:50:00.000Z'],
    ['2019-05-15T15:20:55+00:00', '2019-05-15T15:20:55.000Z'],
    ['1406662672000', '2014-07-29T19:37:52.000Z'],
    ['1406662672', '2014-07-29T19:37:52.000Z'],
    [1406662672000, '2014-07-29T19:37:52.000Z'],
  ])('reads %j', (input, expected) => {
    expect(toIsoTimestamp(input)).toBe(expected);
  });

  it.each([
    '0001-01-01T00:00:00Z',
    '$DATE',
    'yesterday',
    '2024-13-45T99:99:00Z',
    '',
    null,
    undefined,
    {},
    1e20,
    Number.NaN,
  ])('gives undefined for %j', (input) => {
    expect(toIsoTimestamp(input)).toBeUndefined();
  });

  it("tells Go's zero time, which reads as a date-time, from what does not read", () => {
    expect(isGoZeroTime('0001-01-01T00:00:00Z')).toBe(true);
    expect(isGoZeroTime(' 0001-01-01T00:00:00.000Z ')).toBe(true);
    for (const value of ['0001-01-01', '0001-01-01Tnoon', '2024-01-01T00:00:00Z', null, -62135596800000]) {
      expect(isGoZeroTime(value)).toBe(false);
    }
  });

  it('measures and orders', () => {
    expect(secondsBetween('2024-01-01T00:00:00.000Z', '2024-01-01T00:01:30.500Z')).toBe(90.5);
    expect(secondsBetween('2024-01-01T00:01:00.000Z', '2024-01-01T00:00:00.000Z')).toBeNull();
    expect(secondsBetween(null, '2024-01-01T00:00:00.000Z')).toBeNull();
    expect(latestTimestamp(undefined, '2024-01-02T00:00:00.000Z', null, '2024-01-01T00:00:00.000Z')).toBe(
      '2024-01-02T00:00:00.000Z',
    );
    expect(latestTimestamp()).toBeUndefined();
  });
});

describe('severity words', () => {
  it('maps levels and priorities', () => {
    expect(
      ['critical', 'page', 'HIGH', 'error', 'warning', 'medium', 'info', 'low', 'none', 'odd', undefined].map(
        severityFromLevel,
      ),
    ).toEqual(['HIGH', 'HIGH', 'HIGH', 'HIGH', 'MEDIUM', 'MEDIUM', 'LOW', 'LOW', 'LOW', undefined, undefined]);
    expect(['P1', 'p2', 'P3', 'P4', 'P5', 'P6', 'high', null].map(severityFromPriority)).toEqual([
      'HIGH',
      'HIGH',
      'MEDIUM',
      'LOW',
      'LOW',
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('fingerprintOf', () => {
  it('keeps parts apart even when they contain the separator', () => {
    expect(fingerprintOf('a', 'b', 3)).toBe('a|b|3');
    expect(fingerprintOf('a|b', 'c')).not.toBe(fingerprintOf('a', 'b|c'));
    expect(fingerprintOf('a\\', '|b')).not.toBe(fingerprintOf('a\\|', 'b'));
  });
});
