import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StoredSigningKeys } from '#lib/ports/signing-keys/signing-keys.ts';
import { RECORDED_HEADER } from './iam/sdk-calls.ts';

/** The AWS resources the fake answers for: the values the template's references resolve to. */
export const FAKE_RESOURCES = {
  secretArn: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:JwtSigningKey-fake',
  integrationProvidersSecretArn: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:IntegrationProviders-fake',
  vapidSecretArn: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:VapidKeySeed-fake',
  credentialsKeyArn: 'arn:aws:kms:us-east-1:000000000000:key/credentials-fake',
  stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:AnalysisWorkflow-fake',
  bucketName: 'payloads-fake',
  usagePlanId: 'usage-plan-fake',
  restApiId: 'rest-api-fake',
} as const;

/** The secret in the shape lib/ports/signing-keys reads, as the stack's generated secret holds it. */
const SIGNING_KEYS: StoredSigningKeys = { kid: 'key-1', secret: 'f'.repeat(64) };

/** One call as it reached the endpoint: who made it (the access key id), the operation, and what it named. */
interface FakeAwsCall {
  caller: string;
  operation: string;
  detail: Record<string, unknown>;
  /** Whether the client's recording middleware saw the command: false for a client made outside the factory. */
  recorded: boolean;
}

export interface FakeAws {
  endpoint: string;
  calls: FakeAwsCall[];
  /** An object as if a function had written it: what a message of the ingestion queue may point at. */
  putObject(key: string, body: string): void;
  stop(): Promise<void>;
}

interface Request {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** What a handler gives back: the reply and, when the call was understood, what to record. */
interface Outcome {
  reply: Reply;
  call?: Omit<FakeAwsCall, 'caller' | 'recorded'>;
}

const json = (status: number, body: object, contentType = 'application/json'): Reply => ({
  status,
  headers: { 'content-type': contentType },
  body: JSON.stringify(body),
});

const awsJsonError = (version: '1.0' | '1.1', type: string, message: string): Reply =>
  json(400, { __type: type, message }, `application/x-amz-json-${version}`);

/** A data key KMS handed out: what it wraps, and the encryption context that must come back to unwrap it. */
interface DataKey {
  plaintext: string;
  context: string;
}

const contextOf = (input: Record<string, unknown>): string =>
  JSON.stringify(Object.entries((input.EncryptionContext ?? {}) as Record<string, string>).sort());

/**
 * KMS's envelope operations on the credentials key: a wrapped data key opens only with the context it was
 * made under, as in KMS, so a seal and an open that disagree on the context fail here too.
 */
const kms = (target: string, input: Record<string, unknown>, keys: Map<string, DataKey>): Outcome | undefined => {
  const operation = target.replace('TrentService.', '');
  if (operation !== 'GenerateDataKey' && operation !== 'Decrypt') return undefined;
  const call = { operation, detail: input };
  if (input.KeyId !== FAKE_RESOURCES.credentialsKeyArn) {
    return { call, reply: awsJsonError('1.1', 'NotFoundException', `no key ${input.KeyId}`) };
  }
  const reply = (body: object) => ({ call, reply: json(200, body, 'application/x-amz-json-1.1') });
  if (operation === 'GenerateDataKey') {
    const key = { plaintext: randomBytes(32).toString('base64'), context: contextOf(input) };
    const wrapped = randomBytes(48).toString('base64');
    keys.set(wrapped, key);
    return reply({ KeyId: input.KeyId, Plaintext: key.plaintext, CiphertextBlob: wrapped });
  }
  const key = keys.get(String(input.CiphertextBlob));
  if (!key || key.context !== contextOf(input)) {
    return { call, reply: awsJsonError('1.1', 'InvalidCiphertextException', 'the ciphertext or context is wrong') };
  }
  return reply({ KeyId: input.KeyId, Plaintext: key.plaintext, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
};

/** Secrets Manager, Step Functions and KMS speak awsJson: the operation in `x-amz-target`, parameters in the body. */
const awsJson = (request: Request, integrationProviders: string, keys: Map<string, DataKey>): Outcome | undefined => {
  const target = String(request.headers['x-amz-target'] ?? '');
  const input = request.body ? (JSON.parse(request.body) as Record<string, unknown>) : {};
  if (target.startsWith('TrentService.')) return kms(target, input, keys);
  if (target === 'secretsmanager.GetSecretValue') {
    const call = { operation: 'GetSecretValue', detail: input };
    if (input.SecretId === FAKE_RESOURCES.integrationProvidersSecretArn) {
      const providers = {
        ARN: input.SecretId,
        Name: 'IntegrationProviders-fake',
        VersionId: 'v1',
        SecretString: integrationProviders,
      };
      return { call, reply: json(200, providers, 'application/x-amz-json-1.1') };
    }
    if (input.SecretId === FAKE_RESOURCES.vapidSecretArn) {
      // The stored form of lib/ports/push-keys, as the stack's generated secret holds it.
      const seed = { ARN: input.SecretId, Name: 'VapidKeySeed-fake', VersionId: 'v1', SecretString: '{"seed":"fake"}' };
      return { call, reply: json(200, seed, 'application/x-amz-json-1.1') };
    }
    if (input.SecretId !== FAKE_RESOURCES.secretArn) {
      return { call, reply: awsJsonError('1.1', 'ResourceNotFoundException', `no secret ${input.SecretId}`) };
    }
    const secret = {
      ARN: FAKE_RESOURCES.secretArn,
      Name: 'JwtSigningKey-fake',
      VersionId: 'v1',
      SecretString: JSON.stringify(SIGNING_KEYS),
    };
    return { call, reply: json(200, secret, 'application/x-amz-json-1.1') };
  }
  if (target === 'AWSStepFunctions.StartExecution') {
    const call = { operation: 'StartExecution', detail: input };
    if (input.stateMachineArn !== FAKE_RESOURCES.stateMachineArn) {
      return { call, reply: awsJsonError('1.0', 'StateMachineDoesNotExist', `no ${input.stateMachineArn}`) };
    }
    const executionArn = `${FAKE_RESOURCES.stateMachineArn.replace(':stateMachine:', ':execution:')}:${input.name ?? randomUUID()}`;
    return { call, reply: json(200, { executionArn, startDate: Date.now() / 1000 }, 'application/x-amz-json-1.0') };
  }
  return undefined;
};

/** SES v2 is REST-JSON: one path per operation. */
const sesV2 = (request: Request): Outcome | undefined => {
  if (request.method !== 'POST' || request.path !== '/v2/email/outbound-emails') return undefined;
  return {
    call: { operation: 'SendEmail', detail: JSON.parse(request.body) },
    reply: json(200, { MessageId: randomUUID() }),
  };
};

const usagePlanKeyPath = /^\/usageplans\/([^/]+)\/keys(?:\/([^/]+))?$/;
const apiKeyPath = /^\/apikeys(?:\/([^/]+))?$/;

/** API Gateway is REST-JSON: the method and the path name the operation. */
const apiGateway = (request: Request, apiKeys: Map<string, object>): Outcome | undefined => {
  const planKey = usagePlanKeyPath.exec(request.path);
  const apiKey = apiKeyPath.exec(request.path);
  if (!planKey && !apiKey) return undefined;
  const input = request.body ? (JSON.parse(request.body) as Record<string, unknown>) : {};
  const notFound = json(404, { message: 'Invalid API Key identifier specified' });
  if (planKey) {
    const [, planId, keyId] = planKey;
    const detail = { usagePlanId: planId, keyId: keyId ?? input.keyId };
    const known = planId === FAKE_RESOURCES.usagePlanId && apiKeys.has(String(detail.keyId));
    if (request.method === 'POST') {
      const call = { operation: 'CreateUsagePlanKey', detail };
      return { call, reply: known ? json(201, { id: detail.keyId, type: 'API_KEY' }) : notFound };
    }
    const call = { operation: 'DeleteUsagePlanKey', detail };
    return { call, reply: known ? { status: 202 } : notFound };
  }
  const id = apiKey?.[1];
  if (request.method === 'POST' && !id) {
    const created = { id: randomUUID().slice(0, 10), name: input.name, enabled: input.enabled, tags: input.tags };
    apiKeys.set(created.id, created);
    return { call: { operation: 'CreateApiKey', detail: input }, reply: json(201, created) };
  }
  const known = id !== undefined && apiKeys.has(id);
  // A call on an existing key is authorized by that key's tags, which the call itself does not carry.
  const resourceTags = { resourceTags: (apiKeys.get(id ?? '') as { tags?: object } | undefined)?.tags ?? {} };
  if (request.method === 'PATCH') {
    const call = { operation: 'UpdateApiKey', detail: { apiKey: id, ...input, ...resourceTags } };
    return { call, reply: known ? json(200, { id, ...apiKeys.get(id) }) : notFound };
  }
  if (request.method === 'DELETE') {
    if (known) apiKeys.delete(id);
    return {
      call: { operation: 'DeleteApiKey', detail: { apiKey: id, ...resourceTags } },
      reply: known ? { status: 202 } : notFound,
    };
  }
  return undefined;
};

const s3Error = (status: number, code: string): Reply => ({
  status,
  headers: { 'content-type': 'application/xml' },
  body: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`,
});

/** S3 over path-style REST, which the SDK uses for an endpoint that is an IP address. */
const s3 = (request: Request, objects: Map<string, string>): Outcome | undefined => {
  const [, bucket, ...rest] = request.path.split('/');
  const key = decodeURIComponent(rest.join('/'));
  if (!bucket || !key || (request.method !== 'PUT' && request.method !== 'GET')) return undefined;
  const detail = { bucket, key };
  if (request.method === 'PUT') {
    const call = { operation: 'PutObject', detail: { ...detail, tagging: request.headers['x-amz-tagging'] } };
    if (bucket !== FAKE_RESOURCES.bucketName) return { call, reply: s3Error(404, 'NoSuchBucket') };
    objects.set(key, request.body);
    return { call, reply: { status: 200, headers: { etag: `"${randomUUID()}"` } } };
  }
  const call = { operation: 'GetObject', detail };
  const body = bucket === FAKE_RESOURCES.bucketName ? objects.get(key) : undefined;
  if (body === undefined) return { call, reply: s3Error(404, 'NoSuchKey') };
  return { call, reply: { status: 200, headers: { 'content-type': 'application/json' }, body } };
};

/** The access key id of a SigV4 request: each function signs with its own name, so a call names its function. */
const callerOf = (headers: IncomingMessage['headers']): string =>
  /Credential=([^/]+)\//.exec(String(headers.authorization ?? ''))?.[1] ?? 'unsigned';

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/**
 * One fake endpoint for the AWS services that have no embedded server here (Secrets Manager, SES v2, S3,
 * API Gateway, Step Functions, KMS): it answers the operations our adapters call, in each service's protocol,
 * only for the resources of FAKE_RESOURCES, and records every call. Anything else is a 400 the SDK
 * throws, so an unexpected call fails its request instead of passing unnoticed. The integration providers'
 * secret holds `integrationProviders`: `{}` (no provider) as the stack creates it, unless a deployer's
 * settings are given.
 */
export const startFakeAws = async ({ integrationProviders = '{}' } = {}): Promise<FakeAws> => {
  const calls: FakeAwsCall[] = [];
  const objects = new Map<string, string>();
  const apiKeys = new Map<string, object>();
  const dataKeys = new Map<string, DataKey>();

  const handle = async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(incoming.url ?? '/', 'http://fake');
    const request = { method: incoming.method ?? 'GET', path: url.pathname, headers: incoming.headers };
    const full = { ...request, body: await readBody(incoming) };
    const outcome =
      awsJson(full, integrationProviders, dataKeys) ?? sesV2(full) ?? apiGateway(full, apiKeys) ?? s3(full, objects);
    const caller = callerOf(incoming.headers);
    calls.push({
      caller,
      recorded: incoming.headers[RECORDED_HEADER] !== undefined,
      ...(outcome?.call ?? { operation: `${request.method} ${request.path}`, detail: {} }),
    });
    const reply = outcome?.reply ?? json(400, { message: `the fake does not know ${request.method} ${request.path}` });
    response.writeHead(reply.status, reply.headers).end(reply.body);
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    putObject: (key, body) => objects.set(key, body),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
