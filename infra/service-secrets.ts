import { SecretValue, Validations, type RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';

/**
 * The stack's secrets and its key, created in the stack's own scope (not a construct of their own) so their
 * logical ids stay those of earlier deploys: a new id would replace the signing key, signing everyone out, and
 * the key that seals integration tokens, losing them.
 */
export const createServiceSecrets = (stack: Stack, removalPolicy: RemovalPolicy) => {
  // The stored form of lib/ports/signing-keys: `{ kid, secret, previous? }`, with a generated first key.
  const jwtSecret = new Secret(stack, 'JwtSigningKey', {
    description: 'Keys that sign and verify access tokens',
    generateSecretString: {
      secretStringTemplate: JSON.stringify({ kid: 'key-1' }),
      generateStringKey: 'secret',
      passwordLength: 64,
      excludePunctuation: true,
    },
    removalPolicy,
  });
  Validations.of(jwtSecret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'No rotation function yet: a rotation writes a new key and keeps the old one as `previous`, which the ' +
      'verifiers accept, so it can be done by hand with put-secret-value until a rotation Lambda exists.',
  });

  // The stored form of lib/ports/push-keys: `{ seed }`, random text the VAPID key pair is derived from.
  const vapidSecret = new Secret(stack, 'VapidKeySeed', {
    description: 'Seed of the VAPID key pair that signs Web Push notifications',
    generateSecretString: {
      secretStringTemplate: JSON.stringify({}),
      generateStringKey: 'seed',
      passwordLength: 64,
      excludePunctuation: true,
    },
    removalPolicy,
  });
  Validations.of(vapidSecret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'Every browser subscribed with the public key derived from this seed: a rotation would silently end every ' +
      'push subscription, so the seed changes only by hand (members then turn push on again).',
  });

  // The stored form of lib/ports/integration-providers: `{}` until a deployer puts the providers' settings.
  const integrationProviders = new Secret(stack, 'IntegrationProviders', {
    description: 'OAuth applications of the integrations (chat, code hosts, video meetings), as JSON',
    secretStringValue: SecretValue.unsafePlainText('{}'),
    removalPolicy,
  });
  Validations.of(integrationProviders).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      "Client secrets are issued by each provider's console; there is nothing a rotation function could " +
      'generate. A deployer replaces them with put-secret-value (README, "Integrations").',
  });
  const credentialsKey = new Key(stack, 'CredentialsKey', {
    description: 'Encrypts the data keys that seal integration tokens and webhook URLs',
    enableKeyRotation: true,
    removalPolicy,
  });
  return { jwtSecret, vapidSecret, integrationProviders, credentialsKey };
};
