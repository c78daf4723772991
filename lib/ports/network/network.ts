/**
 * The outside network as the service reaches it for URLs and names a workspace sets: the DNS lookups
 * the outbound-URL guard and the SSO domain proof need, and the deployment's exceptions. A port, so tests
 * answer names without a network (test/support/fake-network.ts).
 */
export interface Network {
  /** Every address (A and AAAA) a host name resolves to; none for a name that does not resolve. */
  lookup(host: string): Promise<string[]>;
  /** The TXT records of a name, each record's strings joined; none for a name without any. */
  resolveTxt(name: string): Promise<string[]>;
  /**
   * Networks (CIDR) a deployment lets workspace URLs reach although they are private: an enterprise code
   * host inside the company's network. A deployment setting, never a workspace's.
   */
  readonly privateNetworks: readonly string[];
  /**
   * Plain http to this machine's loopback: the local stack's, where a developer's receivers (and the tests')
   * live, as DECISIONS.md has notifications POSTed to the configured URL locally too. Never in Lambda, where a
   * loopback address is the runtime's own API.
   */
  readonly allowLoopbackHttp: boolean;
  /**
   * An origin standing in for `https://sns.<region>.amazonaws.com`, where SNS confirmation and signing
   * certificate URLs may then point (lib/ingestion/senders/cloudwatch/sns-urls.ts). Only the tests' fake network sets
   * it: no adapter of the service does, so in AWS and on `npm start` those URLs reach AWS's hosts alone.
   */
  readonly snsStandIn?: string;
}
