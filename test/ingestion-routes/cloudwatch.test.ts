import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../ingestion/support.ts';
import { createFakeNetwork } from '../support/fake-network.ts';
import { startTestStack, type HttpReply, type TestClient } from '../support/local-stack.ts';
import { startSnsStandIn, type SnsStandIn } from '../support/sns-stand-in.ts';
import { createTenant, expectAccepted, INGESTION, listSignals, SIGNALS, type Tenant } from './support.ts';

const fixture = (file: string): Record<string, string> =>
  JSON.parse(readFileSync(join(FIXTURES_DIR, 'cloudwatch', file), 'utf8'));

const ALARM_ARN = 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:checkout-cpu-high';

describe('POST /ingestion/cloudwatch (an SNS HTTPS subscription)', () => {
  let client: TestClient;
  let tenant: Tenant;
  let sns: SnsStandIn;

  /** As SNS posts: JSON labelled `text/plain`, the message type in a header, the key in the URL. */
  const post = (message: Record<string, string>, key = tenant.key): Promise<HttpReply> =>
    client.request('POST', `${INGESTION}/cloudwatch?apiKey=${encodeURIComponent(key)}`, JSON.stringify(message), {
      'content-type': 'text/plain; charset=UTF-8',
      'x-amz-sns-message-type': message.Type ?? '',
      'x-amz-sns-message-id': message.MessageId ?? '',
      'x-amz-sns-topic-arn': message.TopicArn ?? '',
      'user-agent': 'Amazon Simple Notification Service Agent',
    });

  const signals = () => listSignals(client, tenant.keyHeaders);

  beforeAll(async () => {
    sns = await startSnsStandIn();
    const network = createFakeNetwork();
    network.snsStandIn = sns.origin;
    client = await startTestStack(':memory:', undefined, { network });
    tenant = await createTenant(client);
  });

  afterAll(async () => {
    await client.stack.stop();
    await sns.close();
  });

  it('confirms a subscription at its SubscribeURL, and stores nothing', async () => {
    const confirmation = sns.signed(fixture('subscription-confirmation.json'));
    const reply = await post(confirmation);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toEqual({
      topicArn: 'arn:aws:sns:us-east-1:123456789012:checkout-alarms',
      subscription: 'confirmed',
    });
    expect(sns.confirmedTokens).toEqual([confirmation.Token]);
    expect(await signals()).toEqual([]);
  });

  it('fetches no SubscribeURL but SNS own, even in a signed confirmation (400)', async () => {
    const confirmation = fixture('subscription-confirmation.json');
    const elsewhere = sns.signed(
      { ...confirmation, SubscribeURL: 'https://sns.us-east-1.amazonaws.com.evil.example/?Action=ConfirmSubscription' },
      { keepUrls: true },
    );
    const reply = await post(elsewhere);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.errors).toEqual([expect.stringMatching(/^SubscribeURL: /)]);
  });

  it('acknowledges an unsubscribe confirmation, confirming and storing nothing', async () => {
    const confirmed = sns.confirmedTokens.length;
    const reply = await post(
      sns.signed({ ...fixture('subscription-confirmation.json'), Type: 'UnsubscribeConfirmation' }),
    );
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toEqual({
      topicArn: 'arn:aws:sns:us-east-1:123456789012:checkout-alarms',
      subscription: 'ended',
    });
    expect(sns.confirmedTokens).toHaveLength(confirmed);
    expect(await signals()).toEqual([]);
  });

  it('refuses a forged, an unsigned and a foreign-certificate message with 401, storing and confirming nothing', async () => {
    const { privateKey: forger } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const alarm = fixture('alarm-notification.json');
    const forged = sns.signed(alarm, { key: forger });
    const tampered = { ...sns.signed(alarm), Message: alarm.Message?.replace('"ALARM"', '"OK"') ?? '' };
    const { Signature: _signature, ...unsigned } = sns.signed(alarm);
    const foreignCertificate = {
      ...sns.signed(alarm),
      SigningCertURL: 'https://sns.us-east-1.amazonaws.com.evil.example/cert.pem',
    };
    const forgedConfirmation = sns.signed(fixture('subscription-confirmation.json'), { key: forger });
    const confirmedBefore = sns.confirmedTokens.length;
    for (const message of [forged, tampered, unsigned, foreignCertificate, forgedConfirmation]) {
      const reply = await post(message);
      expect(reply.status, reply.text).toBe(401);
      expect(reply.body.success).toBe(false);
      expect(reply.body.errors.length).toBeGreaterThan(0);
    }
    expect(sns.confirmedTokens).toHaveLength(confirmedBefore);
    expect(await signals()).toEqual([]);
  });

  it('opens one signal on ALARM and resolves it on OK, signature versions 1 and 2 alike', async () => {
    const fired = expectAccepted(await post(sns.signed(fixture('alarm-notification.json'), { version: '1' })));
    expect(fired).toMatchObject({ source: 'cloudwatch', deduplicated: false });
    const stored = await client.request('GET', `${SIGNALS}/${fired.signalId}`, undefined, tenant.keyHeaders);
    expect(stored.body.data).toMatchObject({
      name: 'checkout-cpu-high',
      source: 'cloudwatch',
      type: 'alarm',
      severity: 'MEDIUM',
      status: 'OPEN',
      serviceId: 'checkout',
      fingerprint: ALARM_ARN,
      triggeredAt: '2026-11-20T10:15:02.115Z',
      metadata: {
        state: 'ALARM',
        alarmArn: ALARM_ARN,
        metricName: 'CPUUtilization',
        namespace: 'AWS/ECS',
        dimensions: { ClusterName: 'prod', ServiceName: 'checkout' },
        threshold: 80,
        comparisonOperator: 'GreaterThanThreshold',
        reason: expect.stringContaining('Threshold Crossed'),
        topicArn: 'arn:aws:sns:us-east-1:123456789012:checkout-alarms',
      },
    });

    const ok = expectAccepted(await post(sns.signed(fixture('ok-notification.json'), { version: '2' })));
    expect(ok.signals[0]).toMatchObject({ signalId: fired.signalId, resolved: true });
    const all = await signals();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: fired.signalId, status: 'RESOLVED' });
    // One certificate URL: fetched once, then kept.
    expect(sns.certificateFetches).toBe(1);
  });

  it('counts a message SNS delivers again (the same MessageId) once', async () => {
    const alarm = sns.signed({ ...fixture('alarm-notification.json'), MessageId: 'b1946ac9-redelivered' });
    const first = expectAccepted(await post(alarm));
    const again = expectAccepted(await post(alarm));
    expect(again).toMatchObject({ signalId: first.signalId, deduplicated: true });
    const stored = await client.request('GET', `${SIGNALS}/${first.signalId}`, undefined, tenant.keyHeaders);
    expect(stored.body.data.occurrences).toBe(1);
  });

  it('keeps INSUFFICIENT_DATA as a LOW record that leaves the open alarm open', async () => {
    const alarm = fixture('alarm-notification.json');
    const later = {
      ...alarm,
      MessageId: '0c1f7e52-fired-again',
      Message: alarm.Message?.replace('2026-11-20T10:15:02.115+0000', '2026-11-20T10:50:00.000+0000') ?? '',
    };
    const open = expectAccepted(await post(sns.signed(later)));
    const reply = expectAccepted(await post(sns.signed(fixture('insufficient-data-notification.json'))));
    expect(reply.signals[0]).toMatchObject({ resolved: false });
    const stored = await client.request('GET', `${SIGNALS}/${reply.signalId}`, undefined, tenant.keyHeaders);
    expect(stored.body.data).toMatchObject({ type: 'alarm_insufficient_data', severity: 'LOW' });
    const still = await client.request('GET', `${SIGNALS}/${open.signalId}`, undefined, tenant.keyHeaders);
    expect(still.body.data.status).toBe('OPEN');
  });

  it('answers a body that is no SNS message with 400 and field messages, and a wrong key with 401', async () => {
    const reply = await post({ hello: 'world' });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.errors).toEqual(expect.arrayContaining([expect.stringMatching(/^Type: /)]));
    const wrongKey = await post(sns.signed(fixture('alarm-notification.json')), 'ims_not.a.key');
    expect(wrongKey.status).toBe(401);
  });
});
