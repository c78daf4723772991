import type { Network } from '#lib/ports/network/network.ts';
import { ssoDomainRecord } from '#lib/workspaces/sso-domain-proof.ts';

/** A public address (example.com's) that every name of the fake resolves to unless a test says otherwise. */
const PUBLIC_ADDRESS = '93.184.215.14';

/**
 * DNS without a network: names resolve to `PUBLIC_ADDRESS` unless `hosts` names their addresses (an empty
 * list: the name does not resolve), and TXT records are what `txt` holds. Plain http to loopback is allowed,
 * as in local mode, so the fake receivers of tests can be reached.
 */
export interface FakeNetwork extends Network {
  hosts: Map<string, string[]>;
  txt: Map<string, string[]>;
  /** A test's SNS stand-in (test/support/sns-stand-in.ts), set while it runs. */
  snsStandIn?: string;
}

export const createFakeNetwork = (privateNetworks: readonly string[] = []): FakeNetwork => {
  const hosts = new Map<string, string[]>();
  const txt = new Map<string, string[]>();
  return {
    hosts,
    txt,
    lookup: async (host) => hosts.get(host.toLowerCase()) ?? [PUBLIC_ADDRESS],
    resolveTxt: async (name) => txt.get(name.toLowerCase()) ?? [],
    privateNetworks,
    allowLoopbackHttp: true,
  };
};

/** Publishes a workspace's SSO proof for `domain` in the fake DNS of a test stack, beside any record there. */
export const publishSsoProof = (network: Network, workspaceId: string, domain: string): void => {
  const { txt } = network as FakeNetwork;
  const { name, value } = ssoDomainRecord(workspaceId, domain);
  txt.set(name, [...(txt.get(name) ?? []), value]);
};
