import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isReachable, pinnedFetch } from '#lib/ports/network/outbound-url.ts';
import { CODE_ENGINE, postDeployment } from '../code-engine/support.ts';
import { createIncident } from '../support/incidents.ts';
import { apiKeyHeaders, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { createFakeNetwork, type FakeNetwork } from '../support/fake-network.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

/**
 * Issue 27, findings 4 and 5: every URL a workspace sets passes one guard. The stack's network refuses plain
 * http to loopback as Lambda's does, and lets 10.20.0.0/16 through as a deployment's private network.
 */
let client: TestClient;
let admin: SignedIn;
const network: FakeNetwork = { ...createFakeNetwork(['10.20.0.0/16']), allowLoopbackHttp: false };

beforeAll(async () => {
  network.hosts.set('nowhere.resolves.example', []);
  client = await startTestStack(':memory:', undefined, { network });
  admin = await signUpBusiness(client);
});
afterAll(() => client.stack.stop());

const putCodeHost = (baseUrl: string) =>
  client.request('PUT', '/api/v1/code-engine/settings', { token: 'ghp_token0001', baseUrl }, admin.auth);
const putWebhook = (webhookUrl: string) =>
  client.request('POST', '/api/v1/integrations/chat/webhook', { webhookUrl }, admin.auth);

/** A name of the fake DNS that resolves to `address`. */
const nameFor = (address: string): string => {
  const name = `h${network.hosts.size}.resolves.example`;
  network.hosts.set(name, [address]);
  return name;
};

describe('finding 4: code host A API root', () => {
  it('refuses internal addresses, plain http and a query string or fragment; nothing is stored', async () => {
    for (const baseUrl of [
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1',
      'http://[::1]',
      'https://169.254.169.254/latest',
      'https://[::1]:8443',
      `https://${nameFor('10.0.0.7')}/api/v3`,
      'https://codehost.example/api/v3?x=',
      'https://codehost.example/api/v3#frag',
      'https://user:secret@codehost.example/api/v3',
      'https://nowhere.resolves.example/api/v3',
    ]) {
      const reply = await putCodeHost(baseUrl);
      expect(reply.status, baseUrl).toBe(400);
      expect(reply.body.errors, baseUrl).toEqual([expect.stringMatching(/^baseUrl: /)]);
    }
    const stored = await client.request('GET', '/api/v1/code-engine/settings', undefined, admin.auth);
    expect(stored.body.data.configured).toBe(false);
  });

  it("accepts a public host, and a private one only in the deployment's private networks", async () => {
    expect((await putCodeHost(`https://${nameFor('10.30.0.4')}/api/v3`)).status).toBe(400);
    const enterprise = await putCodeHost(`https://${nameFor('10.20.1.5')}/api/v3`);
    expect(enterprise.status, enterprise.text).toBe(200);
    expect((await putCodeHost('https://api.github.com')).status).toBe(200);
  });

  it('checks again at use: a name pointed at an internal address since is a 409 before any call', async () => {
    const name = nameFor('93.184.215.14');
    expect((await putCodeHost(`https://${name}/api/v3`)).status).toBe(200);
    await postDeployment(client, await apiKeyHeaders(client, admin, ['ingestion:write']));
    const incidentId = (
      await createIncident(client, admin.auth, { serviceArea: 'hello-world', environment: 'production' })
    ).id;
    network.hosts.set(name, ['169.254.169.254']);
    const fix = await client.request('POST', `${CODE_ENGINE}/generate-fix/${incidentId}`, undefined, admin.auth);
    expect(fix.status, fix.text).toBe(409);
    expect(fix.body.errors).toEqual([expect.stringMatching(/^baseUrl: .*internal address/)]);
  });
});

describe('finding 5: the chat webhook', () => {
  it('refuses NAT64, 6to4, Teredo, benchmarking, multicast, broadcast and IPv4-mapped internal addresses', async () => {
    for (const address of [
      '64:ff9b::a00:1',
      '64:ff9b:1::a00:1',
      '2002:a00:1::1',
      '2001:0:a00:1::1',
      '198.18.0.1',
      '198.19.255.254',
      '224.0.0.1',
      'ff02::1',
      '255.255.255.255',
      '::ffff:a00:1',
      '::ffff:169.254.169.254',
      '100.64.0.1',
    ]) {
      const reply = await putWebhook(`https://${nameFor(address)}/hooks/x`);
      expect(reply.status, address).toBe(400);
      expect(reply.body.errors, address).toEqual([expect.stringContaining('internal address')]);
    }
  });

  it("refuses a name with any internal address among public ones, and the host's own addresses", async () => {
    const mixed = 'mixed.resolves.example';
    network.hosts.set(mixed, ['93.184.215.14', '10.0.0.1']);
    expect((await putWebhook(`https://${mixed}/hooks/x`)).status).toBe(400);
    const own = Object.values(networkInterfaces())
      .flat()
      .map((entry) => entry?.address)
      .filter((address): address is string => Boolean(address));
    for (const address of own) expect(isReachable(address, []), address).toBe(false);
  });
});

describe('the pinned connection', () => {
  it('goes to the address the check approved, whatever the name resolves to later, with the name as Host', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(request.headers.host ?? '');
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      // Not a name any resolver knows: only the pinned address can have answered.
      const url = new URL(`http://rebinding.invalid:${port}/hook`);
      const response = await pinnedFetch({ url, address: '127.0.0.1' })(url, { method: 'POST', body: '{}' });
      expect(await response.text()).toBe('ok');
      expect(seen).toEqual([`rebinding.invalid:${port}`]);
      await expect(pinnedFetch({ url, address: '127.0.0.1' })(`http://elsewhere.invalid:${port}/`, {})).rejects.toThrow(
        /not the checked origin/,
      );
    } finally {
      server.close();
    }
  });
});
