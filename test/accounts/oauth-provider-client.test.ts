import { afterAll, describe, expect, it } from 'vitest';
import { createHttpIdentityProviderClient } from '#lib/ports/identity-provider/http-identity-provider.ts';
import { ProviderUnavailableError } from '#lib/ports/identity-provider/identity-provider.ts';
import { startFakeIdentityProvider } from '../support/fake-identity-provider.ts';

const provider = await startFakeIdentityProvider();
afterAll(() => provider.stop());

describe('the identity-provider port over HTTP', () => {
  it('gives up on a provider that does not answer within its timeout', async () => {
    const client = createHttpIdentityProviderClient({ timeoutMs: 200 });
    provider.fault('hang');
    try {
      const started = Date.now();
      await expect(client.getAsUser(`${provider.url}/api/user`, 'token')).rejects.toBeInstanceOf(
        ProviderUnavailableError,
      );
      await expect(client.openIdConfiguration(provider.url)).rejects.toBeInstanceOf(ProviderUnavailableError);
      const keys = client.keySet(`${provider.url}/jwks`);
      await expect(keys({ alg: 'RS256', kid: 'fake-key-1' }, { payload: '', signature: '' })).rejects.toBeInstanceOf(
        ProviderUnavailableError,
      );
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      provider.fault(undefined);
    }
  });

  it('does not keep a failed discovery: the next call asks again', async () => {
    const client = createHttpIdentityProviderClient();
    provider.fault('error');
    await expect(client.openIdConfiguration(provider.url)).rejects.toBeInstanceOf(ProviderUnavailableError);
    provider.fault(undefined);
    await expect(client.openIdConfiguration(provider.url)).resolves.toMatchObject({ issuer: provider.url });
  });

  it('refuses a discovery document that names another issuer', async () => {
    const client = createHttpIdentityProviderClient();
    await expect(client.openIdConfiguration(`${provider.url}/`)).rejects.toThrow(/names issuer/);
  });
});
