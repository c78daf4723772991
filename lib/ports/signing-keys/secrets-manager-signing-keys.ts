import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { signingKeysFrom, type SigningKeys, type StoredSigningKeys } from './signing-keys.ts';

/** A warm function re-reads the secret this often, so a rotation reaches every instance within minutes. */
const CACHE_MS = 5 * 60 * 1000;

export const createSecretsManagerSigningKeys = (client: SecretsManagerClient, secretArn: () => string): SigningKeys => {
  let cached: { value: Promise<StoredSigningKeys>; at: number } | undefined;
  const load = (): Promise<StoredSigningKeys> => {
    if (!cached || Date.now() - cached.at > CACHE_MS) {
      const value = client
        .send(new GetSecretValueCommand({ SecretId: secretArn() }))
        .then((result) => JSON.parse(result.SecretString ?? '') as StoredSigningKeys);
      value.catch(() => {
        cached = undefined;
      });
      cached = { value, at: Date.now() };
    }
    return cached.value;
  };
  return signingKeysFrom(load);
};
