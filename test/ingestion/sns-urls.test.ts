import { describe, expect, it } from 'vitest';
import { isSnsUrl } from '#lib/ingestion/senders/cloudwatch/sns-urls.ts';
import { createFakeNetwork } from '../support/fake-network.ts';

describe('the SNS URL rule', () => {
  const network = createFakeNetwork();

  it.each([
    'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem',
    'https://sns.us-gov-west-1.amazonaws.com/SimpleNotificationService-abc.pem',
    'https://sns.ap-southeast-2.amazonaws.com/x.pem',
  ])('takes a certificate of SNS itself: %s', (url) => {
    expect(isSnsUrl(network, url, { pem: true })).toBe(true);
  });

  it.each([
    ['plain http', 'http://sns.us-east-1.amazonaws.com/x.pem'],
    ['another host', 'https://evil.example/x.pem'],
    ['a look-alike suffix', 'https://sns.us-east-1.amazonaws.com.evil.example/x.pem'],
    ['a look-alike prefix', 'https://fake-sns.us-east-1.amazonaws.com/x.pem'],
    ['another AWS service', 'https://s3.us-east-1.amazonaws.com/x.pem'],
    ['a port', 'https://sns.us-east-1.amazonaws.com:8443/x.pem'],
    ['credentials', 'https://user:pass@sns.us-east-1.amazonaws.com/x.pem'],
    ['no .pem', 'https://sns.us-east-1.amazonaws.com/x.txt'],
    ['a loopback stand-in no network names', 'http://127.0.0.1:8080/x.pem'],
    ['no URL', 'not a url'],
  ])('refuses %s', (_why, url) => {
    expect(isSnsUrl(network, url, { pem: true })).toBe(false);
  });

  it('takes a SubscribeURL of SNS, with its query, and nothing else', () => {
    expect(
      isSnsUrl(network, 'https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn&Token=t'),
    ).toBe(true);
    expect(isSnsUrl(network, 'https://example.com/?Action=ConfirmSubscription')).toBe(false);
  });

  it('takes the stand-in origin only of a network that names one (tests)', () => {
    const standIn = createFakeNetwork();
    standIn.snsStandIn = 'http://127.0.0.1:8080';
    expect(isSnsUrl(standIn, 'http://127.0.0.1:8080/x.pem', { pem: true })).toBe(true);
    expect(isSnsUrl(standIn, 'http://127.0.0.1:8081/x.pem', { pem: true })).toBe(false);
  });
});
