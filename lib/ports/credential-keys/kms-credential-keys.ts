import { DecryptCommand, GenerateDataKeyCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { CredentialKeys } from './credential-keys.ts';

/** Data keys from KMS (AES-256), wrapped under the stack's credentials key with the context as encryption context. */
export const createKmsCredentialKeys = (client: KMSClient, keyId: () => string): CredentialKeys => ({
  async newDataKey(context) {
    const reply = await client.send(
      new GenerateDataKeyCommand({ KeyId: keyId(), KeySpec: 'AES_256', EncryptionContext: { ...context } }),
    );
    if (!reply.Plaintext || !reply.CiphertextBlob) throw new Error('KMS returned no data key');
    return { plaintext: Buffer.from(reply.Plaintext), wrapped: Buffer.from(reply.CiphertextBlob).toString('base64') };
  },
  async unwrap(wrapped, context) {
    const reply = await client.send(
      new DecryptCommand({
        KeyId: keyId(),
        CiphertextBlob: Buffer.from(wrapped, 'base64'),
        EncryptionContext: { ...context },
      }),
    );
    if (!reply.Plaintext) throw new Error('KMS returned no plaintext');
    return Buffer.from(reply.Plaintext);
  },
});
