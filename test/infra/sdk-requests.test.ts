import { describe, expect, it } from 'vitest';
import { functionPolicies } from '../support/iam/function-policies.ts';
import { evaluate } from '../support/iam/policy-evaluator.ts';
import type { SdkCall } from '../support/iam/sdk-calls.ts';
import { sdkRequests, type Judged } from '../support/iam/sdk-requests.ts';
import { TEST_DEPLOYMENT } from '../support/iam/template-resolver.ts';
import { inspectApp, REQUIRED_CONTEXT } from './template.ts';

const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const PROFILE = `us.${MODEL}`;

/**
 * The commands the template-env test cannot make the bundles send (the fake endpoint speaks no SNS or
 * Bedrock), and for KMS, which it does send, the refusals a run cannot show (another key, another function),
 * judged here as that test judges every command: each is authorized by its resource and condition keys, not
 * by its action alone.
 */
describe('SDK commands as IAM requests, against the synthesized policies', () => {
  const policies = functionPolicies(inspectApp({ bedrockModelId: PROFILE }));
  // The inputs here already name the deployed resources.
  const judged: Judged = { deployment: TEST_DEPLOYMENT, resource: (name) => name };
  const decide = (fn: string, client: string, command: string, input: Record<string, any>): string[] =>
    sdkRequests({ client, command, input } satisfies SdkCall, judged).map((request) =>
      evaluate(policies.get(fn)?.statements ?? [], request),
    );
  const envOf = (fn: string, name: string): string => policies.get(fn)?.env[name] ?? `(no ${name})`;

  it('KMS: the credentials key alone, and only for the functions that seal or open tokens', () => {
    const key = envOf('notification-worker', 'CREDENTIALS_KEY_ID');
    const context = { EncryptionContext: { workspaceId: 'ws-1' } };
    expect(decide('notification-worker', 'KMSClient', 'Decrypt', { KeyId: key, ...context })).toEqual(['allowed']);
    expect(decide('integrations', 'KMSClient', 'GenerateDataKey', { KeyId: key, ...context })).toEqual(['allowed']);
    const otherKey = key.replace(/key\/.*/, 'key/another');
    expect(decide('notification-worker', 'KMSClient', 'Decrypt', { KeyId: otherKey })).toEqual(['implicitDeny']);
    expect(decide('problems', 'KMSClient', 'Decrypt', { KeyId: key })).toEqual(['implicitDeny']);
  });

  it('SNS: a text straight to a number (resource *) from the notification worker alone', () => {
    const text = { PhoneNumber: '+15555550100', Message: 'INC-1' };
    expect(decide('notification-worker', 'SNSClient', 'Publish', text)).toEqual(['allowed']);
    expect(decide('incidents', 'SNSClient', 'Publish', text)).toEqual(['implicitDeny']);
  });

  it("API Gateway: keys of the stack's usage plan, not of another plan", () => {
    const plan = envOf('api-keys', 'USAGE_PLAN_ID');
    expect(decide('api-keys', 'APIGatewayClient', 'CreateUsagePlanKey', { usagePlanId: plan, keyId: 'k1' })).toEqual([
      'allowed',
    ]);
    expect(decide('api-keys', 'APIGatewayClient', 'DeleteUsagePlanKey', { usagePlanId: plan, keyId: 'k1' })).toEqual([
      'allowed',
    ]);
    expect(decide('api-keys', 'APIGatewayClient', 'CreateUsagePlanKey', { usagePlanId: 'other', keyId: 'k1' })).toEqual(
      ['implicitDeny'],
    );
    expect(decide('problems', 'APIGatewayClient', 'CreateApiKey', { name: 'k1' })).toEqual(['implicitDeny']);
  });

  it('SES: mail from the configured sender only (ses:FromAddress)', () => {
    const mail = (from: string) => ({ FromEmailAddress: from, Destination: { ToAddresses: ['ops@example.com'] } });
    expect(decide('mail-worker', 'SESv2Client', 'SendEmail', mail(REQUIRED_CONTEXT.mailFrom))).toEqual([
      'allowed',
      'allowed',
    ]);
    expect(decide('mail-worker', 'SESv2Client', 'SendEmail', mail('ceo@example.com'))).toEqual([
      'implicitDeny',
      'implicitDeny',
    ]);
  });

  it('Bedrock: the model through the configured inference profile, never directly', () => {
    const converse = (modelId: string) => decide('analysis-worker', 'BedrockRuntimeClient', 'Converse', { modelId });
    expect(converse(PROFILE)).toEqual(['allowed', 'allowed']);
    expect(converse(MODEL)).toEqual(['implicitDeny']);
    expect(converse(`eu.${MODEL}`)).toEqual(['implicitDeny', 'implicitDeny']);
  });

  it('S3: tagged puts and gets by the access each function was given', () => {
    const bucket = envOf('ingestion', 'PAYLOAD_BUCKET_NAME');
    const object = { Bucket: bucket, Key: 'ws-1/queued-events/01J.json' };
    expect(decide('ingestion', 'S3Client', 'PutObject', { ...object, Tagging: 'retention=transient' })).toEqual([
      'allowed',
      'allowed',
    ]);
    expect(decide('ingestion', 'S3Client', 'GetObject', object)).toEqual(['implicitDeny']);
    expect(decide('ingestion-worker', 'S3Client', 'GetObject', object)).toEqual(['allowed']);
  });

  it('throws for a command it does not know, so a new call fails the proof until its authorization is written', () => {
    expect(() => decide('ingestion', 'S3Client', 'DeleteObject', { Bucket: 'b', Key: 'k' })).toThrow(
      /no IAM mapping for S3Client DeleteObject/,
    );
    expect(() => decide('ingestion', 'LambdaClient', 'Invoke', {})).toThrow(/no IAM mapping/);
  });
});
