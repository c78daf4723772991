import { ENV } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { createDnsNetwork } from './dns-network.ts';
import { parsePrivateNetworks } from './private-networks.ts';

/** DNS for the URLs and domains a workspace sets, and the deployment's private networks (no AWS grant). */
export const network: PortNeed = {
  binding: { kind: 'network' },
  build: {
    network: (env) =>
      createDnsNetwork({
        privateNetworks: parsePrivateNetworks(env[ENV.outboundPrivateNetworks] ?? ''),
        allowLoopbackHttp: false,
      }),
  },
};
