import { createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const read = (name: string) => readFileSync(new URL(`./sns-signing/${name}`, import.meta.url), 'utf8');

/** The test-only key and certificate (sns-signing/README.md says how they were made). */
const SNS_TEST_KEY = createPrivateKey(read('signing-key.pem'));
const CERTIFICATE = read('signing-cert.pem');
const CERT_PATH = '/SimpleNotificationService-test.pem';

/**
 * The string SNS signs, written here from AWS's page ("Verifying the signatures of Amazon SNS messages") rather
 * than taken from the service, so a mistake there cannot sign and verify the same wrong string.
 */
const signedString = (message: Record<string, string>): string => {
  const fields =
    message.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  return fields
    .filter((field) => message[field] !== undefined)
    .map((field) => `${field}\n${message[field]}\n`)
    .join('');
};

export interface SnsStandIn {
  /** `http://127.0.0.1:<port>`: what the test's network names as `snsStandIn`. */
  origin: string;
  /** The tokens of the subscriptions confirmed, in order. */
  confirmedTokens: string[];
  /** How often the certificate was fetched. */
  certificateFetches: number;
  /**
   * The message as SNS would send it through this stand-in: its SNS URLs moved here, signed (version 1 with
   * SHA1, 2 with SHA256) with the test key, or with `key` to forge one.
   */
  signed(
    message: Record<string, string>,
    options?: { version?: '1' | '2'; key?: KeyObject; keepUrls?: boolean },
  ): Record<string, string>;
  close(): Promise<void>;
}

/** A local stand-in of `sns.<region>.amazonaws.com`: the signing certificate and `ConfirmSubscription`. */
export const startSnsStandIn = async (): Promise<SnsStandIn> => {
  const standIn = { confirmedTokens: [] as string[], certificateFetches: 0 };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (request.method === 'GET' && url.pathname === CERT_PATH) {
      standIn.certificateFetches += 1;
      response.writeHead(200, { 'content-type': 'application/x-x509-ca-cert' }).end(CERTIFICATE);
      return;
    }
    if (request.method === 'GET' && url.searchParams.get('Action') === 'ConfirmSubscription') {
      standIn.confirmedTokens.push(url.searchParams.get('Token') ?? '');
      response
        .writeHead(200, { 'content-type': 'text/xml' })
        .end(
          '<ConfirmSubscriptionResponse><ConfirmSubscriptionResult><SubscriptionArn>arn</SubscriptionArn></ConfirmSubscriptionResult></ConfirmSubscriptionResponse>',
        );
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const moved = (raw: string | undefined) => {
    if (raw === undefined) return undefined;
    const url = new URL(raw);
    return `${origin}${url.pathname}${url.search}`;
  };
  return Object.assign(standIn, {
    origin,
    signed(message: Record<string, string>, { version = '1', key = SNS_TEST_KEY, keepUrls = false } = {}) {
      const here: Record<string, string> = {
        ...message,
        SignatureVersion: version,
        SigningCertURL: `${origin}${CERT_PATH}`,
      };
      for (const field of keepUrls ? [] : ['SubscribeURL', 'UnsubscribeURL']) {
        const url = moved(message[field]);
        if (url) here[field] = url;
      }
      const algorithm = version === '1' ? 'RSA-SHA1' : 'RSA-SHA256';
      here.Signature = sign(algorithm, Buffer.from(signedString(here)), key).toString('base64');
      return here;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
};
