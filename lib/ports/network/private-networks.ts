import { isIP } from 'node:net';

/**
 * `outboundPrivateNetworks` / `OUTBOUND_PRIVATE_NETWORKS`: CIDRs separated by commas, empty by default.
 * A bad entry throws, so the synth (and a Lambda's first use) fails on a setting it could not apply.
 */
export const parsePrivateNetworks = (value: string): readonly string[] => {
  const networks = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of networks) {
    const [address = '', prefix = '', extra] = entry.split('/');
    const family = isIP(address);
    const bits = Number(prefix);
    if (extra !== undefined || family === 0 || !/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) {
      throw new Error(`outbound private networks: "${entry}" is not a CIDR such as 10.20.0.0/16`);
    }
  }
  return networks;
};
