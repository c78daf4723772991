import { ENV } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import type { Network } from './network.ts';
import { parsePrivateNetworks } from './private-networks.ts';

/**
 * DNS for the URLs and domains a workspace sets, and the deployment's private networks (no AWS grant). The
 * resolver loads on the first lookup, so a cold start of the groups that declare it does not carry it.
 */
export const network: PortNeed = {
  binding: { kind: 'network' },
  build: {
    network: (env): Network => {
      const settings = {
        privateNetworks: parsePrivateNetworks(env[ENV.outboundPrivateNetworks] ?? ''),
        allowLoopbackHttp: false,
      };
      const system = onFirstUse(async () => (await import('./dns-network.ts')).createDnsNetwork(settings));
      return {
        lookup: async (host) => (await system()).lookup(host),
        resolveTxt: async (name) => (await system()).resolveTxt(name),
        ...settings,
      };
    },
  },
};
