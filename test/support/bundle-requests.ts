import type { IncomingMessage } from 'node:http';
import { ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import type { APIGatewayProxyResult, SQSRecord } from 'aws-lambda';
import { buildGatewayEvent } from '#infra/local/gateway-event.ts';
import { createRouteMatcher } from '#lib/http/route-matcher.ts';
import { deleteMessages, type LocalSqs } from '#infra/local/sqs-server.ts';
import { KEY_SCOPES } from '#lib/identity/caller.ts';
import { CALLBACK_PATHS } from '#lib/integrations/oauth-connections.ts';
import type { OAuthIntegration } from '#lib/ports/integration-providers/integration-providers.ts';
import { allRoutes } from '#lib/routes/index.ts';
import type { FakeAws } from './fake-aws.ts';
import type { RunningBundle } from './built-bundles.ts';

const routes = createRouteMatcher(allRoutes());

export interface BundleReply {
  status: number;
  body: any;
}

let clients = 0;

/**
 * Each request comes from its own client address, as many users would: the template's limiter settings
 * (a few e-mails a minute per client) then count each request alone, and apply unchanged.
 */
const nextClientAddress = (): string => {
  clients += 1;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
};

/**
 * The proxy event API Gateway would send for this request, built by the local server's own builder, so
 * a bundle meets exactly the event `npm start` gives its handler.
 */
export const gatewayEvent = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const url = new URL(path, 'http://127.0.0.1');
  const match = routes.match(method, url.pathname);
  if (!match) throw new Error(`no route for ${method} ${url.pathname}`);
  const text = body === undefined ? '' : JSON.stringify(body);
  const allHeaders = { host: '127.0.0.1', ...(text && { 'content-type': 'application/json' }), ...headers };
  const request = {
    rawHeaders: Object.entries(allHeaders).flat(),
    headers: allHeaders,
    httpVersion: '1.1',
    socket: { remoteAddress: nextClientAddress() },
  } as unknown as IncomingMessage;
  return buildGatewayEvent(request, url, Buffer.from(text), match);
};

/** One request to a route group's bundle, answered with the parsed envelope. */
export const send = async (
  bundle: RunningBundle,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<BundleReply> => {
  const result = (await bundle.invoke(gatewayEvent(method, path, body, headers))) as APIGatewayProxyResult;
  let parsed: unknown;
  try {
    parsed = result.isBase64Encoded ? undefined : JSON.parse(result.body);
  } catch {
    parsed = undefined;
  }
  return { status: result.statusCode, body: parsed };
};

/** A reply of another status fails the step, with the bundle's log when it is given (a 5xx says why only there). */
const expectStatus = (reply: BundleReply, status: number, step: string, log = ''): void => {
  if (reply.status !== status)
    throw new Error(`${step}: expected ${status}, got ${reply.status}: ${JSON.stringify(reply.body)}\n${log}`);
};

export interface BundleCaller {
  email: string;
  userId: string;
  workspaceId: string;
  bearer: Record<string, string>;
}

/** The post office: the mail queue and the mail-worker bundle that empties it into (fake) SES. */
export interface PostOffice {
  aws: FakeAws;
  sqs: LocalSqs;
  mailWorker: RunningBundle;
}

/** Hands what waits on the mail queue to the mail-worker bundle, as Lambda's event source mapping would. */
const deliverQueuedMail = async ({ sqs, mailWorker }: PostOffice): Promise<void> => {
  const { Messages = [] } = await sqs.client.send(
    new ReceiveMessageCommand({ QueueUrl: sqs.queueUrl('mail'), MaxNumberOfMessages: 10, AttributeNames: ['All'] }),
  );
  if (Messages.length === 0) return;
  const reply = (await mailWorker.invoke({
    Records: Messages.map((message) => sqsRecord(message, sqs.queueArn('mail'))),
  })) as { batchItemFailures: unknown[] };
  if (reply.batchItemFailures.length > 0) throw new Error(`mail-worker failed: ${JSON.stringify(reply)}`);
  await deleteMessages(sqs.client, sqs.queueUrl('mail'), Messages);
};

/** Every address SES was asked to mail, once per e-mail. */
export const sesRecipients = (aws: FakeAws): string[] =>
  aws.calls
    .filter(({ operation }) => operation === 'SendEmail')
    .flatMap(({ detail }) => (detail as { Destination: { ToAddresses: string[] } }).Destination.ToAddresses);

const codeSentTo = (aws: FakeAws, email: string): string | undefined => {
  const mail = aws.calls
    .filter((call) => call.operation === 'SendEmail')
    .map((call) => call.detail as { Destination: { ToAddresses: string[] }; Content: any })
    .findLast((detail) => detail.Destination.ToAddresses.includes(email));
  return /code is (\d{6})/.exec(String(mail?.Content?.Simple?.Body?.Text?.Data ?? ''))?.[1];
};

/**
 * The code SES was asked to mail to `email` last: the verification e-mail, queued by the auth bundle and
 * delivered by the mail-worker bundle. Callers run side by side, so another's delivery may carry it.
 */
const mailedCode = async (office: PostOffice, email: string): Promise<string> => {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    await deliverQueuedMail(office);
    const code = codeSentTo(office.aws, email);
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code was mailed to ${email}`);
};

/**
 * Confirms an outside address as its owner would (docs/security.md, "Who a page may reach"): the confirmation
 * e-mail the mail-worker bundle had SES send, its link's path POSTed to the business bundle.
 */
export const confirmThroughBundle = async (business: RunningBundle, office: PostOffice, address: string) => {
  await deliverQueuedMail(office);
  const mail = office.aws.calls
    .filter((call) => call.operation === 'SendEmail')
    .map((call) => call.detail as { Destination: { ToAddresses: string[] }; Content: any })
    .findLast((detail) => detail.Destination.ToAddresses.includes(address));
  const path = /\/api\/v1\/business\/outside-addresses\/confirm\/\S+/.exec(
    String(mail?.Content?.Simple?.Body?.Text?.Data ?? ''),
  )?.[0];
  if (!path) throw new Error(`no confirmation was mailed to ${address}`);
  expectStatus(await send(business, 'POST', path), 200, `confirming ${address}`);
};

/**
 * A business ADMIN signed up through the auth bundle itself: register, the code from the e-mail the
 * mail-worker bundle had SES send, verify, log in.
 */
export const signUpThroughBundle = async (
  auth: RunningBundle,
  office: PostOffice,
  label: string,
): Promise<BundleCaller> => {
  const email = `${label}-${Date.now().toString(36)}@example.com`;
  const password = 'correct horse battery staple';
  const registered = await send(auth, 'POST', '/api/v1/auth/business/register', {
    businessName: `${label} Ops`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email,
    password,
  });
  expectStatus(registered, 201, `${label}: register`);
  const verified = await send(auth, 'POST', '/api/v1/auth/verify_email', {
    email,
    otp: await mailedCode(office, email),
    password,
  });
  expectStatus(verified, 200, `${label}: verify_email`);
  const loggedIn = await send(auth, 'POST', '/api/v1/auth/login', { email, password });
  expectStatus(loggedIn, 200, `${label}: login`);
  const { accessToken, user } = loggedIn.body.data;
  return { email, userId: user.id, workspaceId: user.businessId, bearer: { authorization: `Bearer ${accessToken}` } };
};

/** An API key with every scope, created through the api-keys bundle (which mirrors it into the usage plan). */
export const apiKeyThroughBundle = async (
  apiKeys: RunningBundle,
  caller: BundleCaller,
): Promise<Record<string, string>> => {
  const reply = await send(
    apiKeys,
    'POST',
    '/api/v1/apikey/createapikey',
    { name: 'bundle probe', environment: 'PRODUCTION', scopes: [...KEY_SCOPES] },
    caller.bearer,
  );
  expectStatus(reply, 201, 'createapikey');
  return { 'x-api-key': reply.body.data.key as string };
};

/**
 * An OAuth connection of the caller made through the integrations bundle, as a person approving at the
 * provider would: the connect route's authorization URL carries the state, and the provider sends it back
 * with a code to the callback route, which exchanges the code at the fake provider and seals the tokens.
 */
export const connectThroughBundle = async (
  integrations: RunningBundle,
  caller: BundleCaller,
  integration: OAuthIntegration,
): Promise<void> => {
  const started = await send(integrations, 'POST', `/api/v1/integrations/${integration}/connect`, {}, caller.bearer);
  expectStatus(started, 200, `${integration}: connect`, integrations.output().slice(-4000));
  const state = new URL(started.body.data.authUrl).searchParams.get('state') ?? '';
  const query = `?code=a-good-code&state=${encodeURIComponent(state)}`;
  const connected = await send(integrations, 'GET', `${CALLBACK_PATHS[integration]}${query}`, undefined, caller.bearer);
  expectStatus(connected, 200, `${integration}: callback`, integrations.output().slice(-4000));
};

/** A received message as Lambda's SQS event source hands it to the consumer. */
export const sqsRecord = (message: Message, queueArn: string): SQSRecord => ({
  messageId: message.MessageId ?? '',
  receiptHandle: message.ReceiptHandle ?? '',
  body: message.Body ?? '',
  attributes: {
    ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? '1',
    SentTimestamp: message.Attributes?.SentTimestamp ?? String(Date.now()),
    SenderId: message.Attributes?.SenderId ?? 'local',
    ApproximateFirstReceiveTimestamp: message.Attributes?.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
  },
  messageAttributes: {},
  md5OfBody: message.MD5OfBody ?? '',
  eventSource: 'aws:sqs',
  eventSourceARN: queueArn,
  awsRegion: 'us-east-1',
});
