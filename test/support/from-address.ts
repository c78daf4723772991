import { request } from 'node:http';

export interface AddressedReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * A request sent from a chosen loopback address (any of 127.0.0.0/8 works on Linux), so tests can act
 * as several clients of the per-address limiters.
 */
export const requestFrom = (
  baseUrl: string,
  localAddress: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<AddressedReply> =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const outgoing = request(
      `${baseUrl}${path}`,
      {
        method,
        localAddress,
        headers: {
          ...headers,
          ...(payload && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: text ? JSON.parse(text) : undefined,
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
