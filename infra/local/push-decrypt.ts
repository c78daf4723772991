import { createDecipheriv, createECDH, createHmac, createPublicKey, verify, type ECDH } from 'node:crypto';

/**
 * The receiving half of RFC 8291 (Message Encryption for Web Push, aes128gcm of RFC 8188) and the check of an
 * RFC 8292 VAPID header, written from the RFCs rather than with the sender's library, so that the stand-in
 * checks web-push's output instead of agreeing with it by construction.
 */
const hmac = (key: Buffer, data: Buffer): Buffer => createHmac('sha256', key).update(data).digest();

/** HKDF-Expand for one block, which every length here fits in. */
const expand = (prk: Buffer, info: Buffer, length: number): Buffer =>
  hmac(prk, Buffer.concat([info, Buffer.from([1])])).subarray(0, length);

/** The browser's side of a subscription: its ECDH key pair and authentication secret. */
export interface ReceiverKeys {
  ecdh: ECDH;
  auth: Buffer;
}

export const newReceiverKeys = (auth: Buffer): ReceiverKeys => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, auth };
};

/** The plaintext of one aes128gcm push message (a single record, as Web Push sends at most 4 KB). */
export const decryptPush = (body: Buffer, { ecdh, auth }: ReceiverKeys): string => {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), senderKey]);
  const ikm = expand(hmac(auth, shared), keyInfo, 32);
  const prk = hmac(salt, ikm);
  const cek = expand(prk, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = expand(prk, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(-16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, -16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('the record has no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
};

/**
 * Checks `Authorization: vapid t=<JWT>, k=<public key>`: an ES256 JWT under that key whose audience is the
 * endpoint's origin and which has not expired. Answers the key on success, a reason otherwise.
 */
export const checkVapid = (
  header: string | undefined,
  origin: string,
  nowSeconds: number,
): { publicKey: string } | { refused: string } => {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+),\s*k=([\w-]+)$/.exec(header ?? '');
  if (!match) return { refused: 'no vapid authorization' };
  const [, jwt = '', key = ''] = match;
  const [head = '', claims = '', signature = ''] = jwt.split('.');
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return { refused: 'the JWT is not signed by k' };
  const { aud, exp } = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { aud?: string; exp?: number };
  if (aud !== origin) return { refused: `the JWT's audience ${aud} is not ${origin}` };
  if (!exp || exp < nowSeconds) return { refused: 'the JWT has expired' };
  return { publicKey: key };
};
