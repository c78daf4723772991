import { X509Certificate, verify } from 'node:crypto';
import { BadGatewayError, UnauthorizedError } from '#lib/contract/errors.ts';
import type { Network } from '#lib/ports/network/network.ts';
import { type SnsMessage, stringToSign } from './sns-message.ts';
import { fetchSnsUrl, isSnsUrl } from './sns-urls.ts';

/** SignatureVersion 1 signs with SHA1withRSA, 2 with SHA256withRSA. */
const ALGORITHMS: Readonly<Record<string, string>> = { '1': 'RSA-SHA1', '2': 'RSA-SHA256' };

/** Certificates per URL, per network (one per function instance; each test stack its own). */
const certificates = new WeakMap<Network, Map<string, Promise<X509Certificate | undefined>>>();

/**
 * The signing certificate at `url`, fetched once per instance: SNS names the same one in every message until
 * it rotates it, which gives a new URL. A failed fetch is not kept, so the next message tries again.
 */
const certificateAt = async (network: Network, url: string): Promise<X509Certificate | undefined> => {
  const known = certificates.get(network) ?? new Map<string, Promise<X509Certificate | undefined>>();
  certificates.set(network, known);
  const cached = known.get(url);
  if (cached) return cached;
  const loading = fetchSnsUrl(network, url).then((pem) => {
    try {
      return pem === undefined ? undefined : new X509Certificate(pem);
    } catch {
      return undefined;
    }
  });
  known.set(url, loading);
  const certificate = await loading;
  if (!certificate) known.delete(url);
  return certificate;
};

const unsigned = (field: string, why: string) =>
  new UnauthorizedError('Invalid SNS message signature', [`${field}: ${why}`]);

/**
 * Verifies an SNS message's signature against the certificate its `SigningCertURL` names, which must be SNS's
 * own (`sns.<region>.amazonaws.com`, https, `.pem`): a missing, unknown or false signature is a 401, before
 * anything is stored or fetched on the message's word. A certificate that cannot be fetched is a 502, so SNS
 * delivers again rather than the message being refused for good.
 */
export const verifySnsSignature = async (network: Network, message: SnsMessage): Promise<void> => {
  const { Signature: signature, SigningCertURL: certUrl, SignatureVersion: version } = message;
  if (!signature) throw unsigned('Signature', 'required: SNS signs every message');
  const algorithm = ALGORITHMS[version ?? ''];
  if (!algorithm) throw unsigned('SignatureVersion', 'must be 1 or 2');
  if (!certUrl || !isSnsUrl(network, certUrl, { pem: true })) {
    throw unsigned('SigningCertURL', 'must be an https URL of sns.<region>.amazonaws.com ending in .pem');
  }
  const certificate = await certificateAt(network, certUrl);
  if (!certificate) {
    throw new BadGatewayError('The SNS signing certificate could not be fetched', [
      'SigningCertURL: no certificate was answered there; SNS will deliver again',
    ]);
  }
  const valid = verify(
    algorithm,
    Buffer.from(stringToSign(message), 'utf8'),
    certificate.publicKey,
    Buffer.from(signature, 'base64'),
  );
  if (!valid) throw unsigned('Signature', 'does not match the message and the signing certificate');
};
