import { lookup, resolveTxt } from 'node:dns/promises';
import type { Network } from './network.ts';

/** Codes of a name that does not resolve: an answer (none), not a failure. */
const NO_ANSWER = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN']);

const orNone = async <T>(query: () => Promise<T[]>): Promise<T[]> => {
  try {
    return await query();
  } catch (error) {
    if (NO_ANSWER.has((error as NodeJS.ErrnoException).code ?? '')) return [];
    throw error;
  }
};

/** The system resolver, in Lambda and locally alike. */
export const createDnsNetwork = (settings: Pick<Network, 'privateNetworks' | 'allowLoopbackHttp'>): Network => ({
  lookup: (host) =>
    orNone(async () => (await lookup(host, { all: true, verbatim: true })).map(({ address }) => address)),
  resolveTxt: (name) => orNone(async () => (await resolveTxt(name)).map((chunks) => chunks.join(''))),
  ...settings,
});
