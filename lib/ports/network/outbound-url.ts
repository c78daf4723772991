import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Readable } from 'node:stream';
import type { Network } from './network.ts';

/**
 * The one guard for every URL a workspace sets and the service then calls (a chat webhook, a code host's
 * API root): the service must not become a way into its own network, or a way to read what answers there.
 */

/** Why a URL is refused; its message follows the field's name in a field message (`baseUrl: must be ...`). */
export class OutboundUrlRefusedError extends Error {}

const refused = (reason: string) => new OutboundUrlRefusedError(reason);

/**
 * What no workspace URL may reach: this network (0/8), private, CGNAT, loopback, link-local (the instance
 * metadata endpoint among them), IETF and documentation blocks, benchmarking (198.18/15), multicast,
 * reserved and broadcast; in IPv6 the unspecified and loopback addresses, IPv4-compatible and mapped
 * addresses (checked as their IPv4 address instead), NAT64, discard, Teredo, documentation, 6to4 (which
 * embed an IPv4 address a gateway would reach), unique-local, link- and site-local, and multicast.
 */
const INTERNAL_V4: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const INTERNAL_V6: readonly [string, number][] = [
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const blockListOf = (v4: readonly [string, number][], v6: readonly [string, number][]): BlockList => {
  const list = new BlockList();
  for (const [network, prefix] of v4) list.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of v6) list.addSubnet(network, prefix, 'ipv6');
  return list;
};

const INTERNAL = blockListOf(INTERNAL_V4, INTERNAL_V6);

/** The machine's own addresses (a Lambda's, the local server's): a service listening on them is internal too. */
const ownAddresses = (): Set<string> =>
  new Set(
    Object.values(networkInterfaces())
      .flat()
      .flatMap((entry) => (entry ? [entry.address.toLowerCase()] : [])),
  );

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** An IPv4 address written as IPv6 (`::ffff:a.b.c.d`, `::ffff:0a00:0001`), as the IPv4 address it is. */
const embeddedV4 = (address: string): string | undefined => {
  const match = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = Number.parseInt(match[2] as string, 16);
  const low = Number.parseInt(match[3] as string, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
};

const privateNetworkList = (networks: readonly string[]): BlockList => {
  const list = new BlockList();
  for (const entry of networks) {
    const [address = '', prefix = ''] = entry.split('/');
    list.addSubnet(address, Number(prefix), familyOf(address));
  }
  return list;
};

/** Whether a workspace URL may reach `address`: public, or in a network the deployment allows. */
export const isReachable = (address: string, privateNetworks: readonly string[]): boolean => {
  const plain = embeddedV4(address) ?? address;
  const family = familyOf(plain);
  if (privateNetworkList(privateNetworks).check(plain, family)) return true;
  return !INTERNAL.check(plain, family) && !ownAddresses().has(plain.toLowerCase());
};

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

/** A resolver that fails (a timeout, no DNS at all) refuses the URL like a name that does not resolve. */
const lookupOrNone = async (network: Network, host: string): Promise<string[]> => {
  try {
    return await network.lookup(host);
  } catch {
    return [];
  }
};

export interface CheckedUrl {
  url: URL;
  /** The address the check approved: every connection for this URL goes to it, whatever DNS says later. */
  address: string;
}

/**
 * Checks a workspace URL and resolves the address to call it at. https only (plain http to loopback only in
 * local mode), no credentials or fragment, and for a base URL no query string (the service appends paths,
 * and a `?` would turn them into a query of a path the workspace chose). Every address the host resolves
 * to must be reachable, so a name with one public and one internal address is refused too.
 */
export const checkOutboundUrl = async (
  network: Network,
  raw: string,
  { base = false }: { base?: boolean } = {},
): Promise<CheckedUrl> => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('must be an absolute URL');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback = network.allowLoopbackHttp && LOOPBACK_NAMES.has(host);
  if (url.protocol !== 'https:' && !(loopback && url.protocol === 'http:')) throw refused('must be an https URL');
  if (url.username || url.password) throw refused('must not carry a user name or password');
  if (url.hash || raw.includes('#')) throw refused('must not have a fragment');
  if (base && (url.search || raw.includes('?'))) throw refused('must not have a query string (it is a base URL)');
  if (loopback) return { url, address: host === 'localhost' ? '127.0.0.1' : host };
  const addresses = isIP(host) ? [host] : await lookupOrNone(network, host);
  if (addresses.length === 0) throw refused(`names a host that does not resolve (${host})`);
  const internal = addresses.find((address) => !isReachable(address, network.privateNetworks));
  if (internal) throw refused(`resolves to an internal address (${internal})`);
  return { url, address: addresses[0] as string };
};

/** Statuses whose response has no body, which a `Response` refuses to be built with. */
const NULL_BODY = new Set([101, 204, 205, 304]);

const responseOf = (message: IncomingMessage, method: string): Response => {
  const headers = new Headers();
  for (let index = 0; index + 1 < message.rawHeaders.length; index += 2) {
    headers.append(message.rawHeaders[index] as string, message.rawHeaders[index + 1] as string);
  }
  const status = message.statusCode ?? 502;
  const empty = NULL_BODY.has(status) || method === 'HEAD';
  if (empty) message.resume();
  return new Response(empty ? null : (Readable.toWeb(message) as ReadableStream), {
    status,
    statusText: message.statusMessage ?? '',
    headers,
  });
};

/** One request over node's http(s) with the name resolved to `address`: TLS still checks the host name. */
const send = (url: URL, init: RequestInit, address: string): Promise<Response> =>
  new Promise((resolve, reject) => {
    const family = isIP(address);
    const method = (init.method ?? 'GET').toUpperCase();
    const body = init.body;
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
      reject(new Error('only string and byte bodies are sent to workspace URLs'));
      return;
    }
    const headers = new Headers(init.headers);
    // node frames a DELETE's body only with a length, and code host A's file deletion has one.
    if (body) headers.set('content-length', String(Buffer.byteLength(body)));
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method,
        headers: Object.fromEntries(headers.entries()),
        lookup: (_host, options, callback) =>
          (options as { all?: boolean }).all
            ? (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
                { address, family },
              ])
            : callback(null, address, family),
        ...(init.signal && { signal: init.signal }),
      },
      (message) => resolve(responseOf(message, method)),
    );
    request.on('error', reject);
    if (body) request.end(body);
    else request.end();
  });

/**
 * A `fetch` for one checked URL and the paths under it: each call goes to the address the check approved
 * (no DNS between check and use, so a name pointed elsewhere meanwhile changes nothing), never follows a
 * redirect, and refuses a URL of another origin.
 */
export const pinnedFetch =
  ({ url: checked, address }: CheckedUrl) =>
  async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.origin !== checked.origin) throw refused(`${url.origin} is not the checked origin ${checked.origin}`);
    return send(url, init, address);
  };
