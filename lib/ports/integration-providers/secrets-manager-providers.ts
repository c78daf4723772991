import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { parseIntegrationProviders, type IntegrationProviders } from './integration-providers.ts';

/** A replaced client secret reaches every instance within this time. */
const CACHE_MS = 5 * 60 * 1000;

export const createSecretsManagerProviders = (
  client: SecretsManagerClient,
  secretArn: () => string,
): (() => Promise<IntegrationProviders>) => {
  let cached: { value: IntegrationProviders; at: number } | undefined;
  return async () => {
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
    const reply = await client.send(new GetSecretValueCommand({ SecretId: secretArn() }));
    const value = parseIntegrationProviders(reply.SecretString);
    cached = { value, at: Date.now() };
    return value;
  };
};
