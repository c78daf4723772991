import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { pushKeysFrom, type PushKeys, type StoredPushKeys } from './push-keys.ts';

/** The VAPID seed from its secret, read on the first push or key request of a warm function. */
export const createSecretsManagerPushKeys = (client: SecretsManagerClient, secretArn: () => string): PushKeys =>
  pushKeysFrom(async () => {
    const result = await client.send(new GetSecretValueCommand({ SecretId: secretArn() }));
    return JSON.parse(result.SecretString ?? '') as StoredPushKeys;
  });
