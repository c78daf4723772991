import { setTimeout as delay } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { signUpBusiness } from '../support/accounts.ts';
import { createFakeNetwork } from '../support/fake-network.ts';
import { startTestStack } from '../support/local-stack.ts';

it('stops only once a function whose caller hung up has finished: the store outlives it', async () => {
  // The SSO settings check each domain's TXT proof: the function waits in that lookup until the test releases it.
  const network = createFakeNetwork();
  let lookedUp!: () => void;
  const lookingUp = new Promise<void>((resolve) => {
    lookedUp = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const client = await startTestStack(':memory:', undefined, {
    network: {
      ...network,
      resolveTxt: async (name) => {
        lookedUp();
        await released;
        return network.resolveTxt(name);
      },
    },
  });
  const admin = await signUpBusiness(client, { businessName: 'Hung Up' });

  const caller = new AbortController();
  const hungUp = fetch(`${client.stack.url}/api/v1/business/sso`, {
    method: 'PUT',
    headers: { ...admin.auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      enabled: true,
      protocol: 'OIDC',
      loginUrl: 'https://idp.example.com',
      domains: ['a.example'],
    }),
    signal: caller.signal,
  }).catch((error: unknown) => (error as Error).name);
  await lookingUp;
  caller.abort();
  expect(await hungUp).toBe('AbortError');

  // The subject is a wait: an in-memory stack with nothing running stops in a few milliseconds.
  const stopping = client.stack.stop().then(() => 'stopped');
  expect(await Promise.race([stopping, delay(300, 'still waiting')])).toBe('still waiting');
  release();
  // Before, the store had closed under the function: its next call crashed the store's thread, and stop never ended.
  expect(await stopping).toBe('stopped');
});
