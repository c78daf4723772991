import { checkOutboundUrl, pinnedFetch } from '#lib/ports/network/outbound-url.ts';
import type { Network } from '#lib/ports/network/network.ts';

/** SNS's own endpoints: `sns.<region>.amazonaws.com`, exactly (GovCloud's regions included). */
const SNS_HOST = /^sns\.[a-z]{2}(?:-[a-z]+)+-\d\.amazonaws\.com$/;

/** How long SNS gets to answer a confirmation or a certificate request, well inside the function's time. */
const SNS_TIMEOUT_MS = 5_000;

/**
 * Whether `raw` may be fetched for an SNS message: an https URL of SNS's own host (any certificate must also
 * end in `.pem`), or of the stand-in origin a test's network names. A message names these URLs itself, so
 * without this rule a forged message could make the service fetch anything, and trust any certificate.
 */
export const isSnsUrl = (network: Network, raw: string, { pem = false }: { pem?: boolean } = {}): boolean => {
  if (!URL.canParse(raw)) return false;
  const url = new URL(raw);
  if (pem && !url.pathname.endsWith('.pem')) return false;
  if (url.username || url.password) return false;
  const standIn = network.snsStandIn;
  if (standIn && url.origin === new URL(standIn).origin) return true;
  return url.protocol === 'https:' && url.port === '' && SNS_HOST.test(url.hostname);
};

/**
 * GETs an SNS URL (`isSnsUrl` checked by the caller) through the one outbound guard, so the connection goes
 * to the address it approved. Undefined for an answer other than 200 or no answer at all.
 */
export const fetchSnsUrl = async (network: Network, raw: string): Promise<string | undefined> => {
  try {
    const checked = await checkOutboundUrl(network, raw);
    const response = await pinnedFetch(checked)(checked.url, { signal: AbortSignal.timeout(SNS_TIMEOUT_MS) });
    const text = await response.text();
    return response.status === 200 ? text : undefined;
  } catch {
    return undefined;
  }
};
