import { createECDH, createHash } from 'node:crypto';

/** The VAPID key pair (RFC 8292) that signs every push this deployment sends, both halves base64url. */
interface VapidKeys {
  /** The uncompressed P-256 point browsers subscribe with (`applicationServerKey`). */
  publicKey: string;
  privateKey: string;
}

/** The port: the deployment's VAPID keys, read once and kept by the warm function. */
export interface PushKeys {
  vapidKeys(): Promise<VapidKeys>;
}

/** The stored form, the same in Secrets Manager and in the local data directory: random text generated at deploy. */
export interface StoredPushKeys {
  seed: string;
}

/** The order of P-256's group: a private key is a scalar in [1, n - 1]. */
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

/**
 * The key pair derived from the stored seed. Secrets Manager generates random text, not an EC key, so the
 * private key is the seed's SHA-256 (hashed again in the 2^-32 case that it is not below the curve's order):
 * the secret is generated at deploy like the JWT key, and the pair stays the same for as long as it does,
 * which is what keeps every browser's subscription valid.
 */
const vapidKeysFrom = ({ seed }: StoredPushKeys): VapidKeys => {
  let scalar = createHash('sha256').update(`vapid:${seed}`).digest();
  while (BigInt(`0x${scalar.toString('hex')}`) >= P256_ORDER || scalar.every((byte) => byte === 0)) {
    scalar = createHash('sha256').update(scalar).digest();
  }
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(scalar);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: scalar.toString('base64url') };
};

export const pushKeysFrom = (load: () => Promise<StoredPushKeys>): PushKeys => {
  let derived: Promise<VapidKeys> | undefined;
  return {
    vapidKeys() {
      derived ??= load().then(vapidKeysFrom);
      derived.catch(() => {
        derived = undefined;
      });
      return derived;
    },
  };
};
