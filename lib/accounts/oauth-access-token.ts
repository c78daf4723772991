import * as z from 'zod/mini';
import { ProviderUnavailableError } from '#lib/ports/identity-provider/identity-provider.ts';
import type { AccountScope } from '#lib/identity/scope.ts';
import { emailKey } from './account.ts';
import type { UserApiProvider } from '#lib/ports/identity-provider/oauth-providers.ts';
import { proofRejected } from './oauth-proof.ts';
import type { OAuthClaim } from './schemas.ts';

/** The parts of code host A's `GET /user` and `GET /user/emails` that identify the token's owner. */
const user = z.object({ id: z.union([z.number(), z.string()]) });
const emails = z.array(z.object({ email: z.string(), verified: z.boolean() }));

/** A 200 whose body is not what the API promises is the provider's fault, not the caller's. */
const parse = <T>(schema: z.ZodMiniType<T>, url: string, body: unknown): T => {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ProviderUnavailableError(`${url} answered an unexpected body`);
  return parsed.data;
};

/**
 * The provider's user API answers for the token's owner: its id must be provider_uuid and the
 * request's address one of its verified addresses. Both calls go out together, to halve the wait.
 */
export const verifyProviderAccessToken = async (
  { ports }: AccountScope,
  {
    providerName,
    provider,
    accessToken,
    claim,
  }: { providerName: string; provider: UserApiProvider; accessToken: string; claim: OAuthClaim },
): Promise<void> => {
  const userUrl = `${provider.apiBaseUrl}/user`;
  const emailsUrl = `${provider.apiBaseUrl}/user/emails`;
  const [owner, addresses] = await Promise.all([
    ports.identityProvider.getAsUser(userUrl, accessToken),
    ports.identityProvider.getAsUser(emailsUrl, accessToken),
  ]);
  if (owner.status !== 200) throw proofRejected(`accessToken: ${providerName} does not accept it`);
  if (String(parse(user, userUrl, owner.body).id) !== claim.provider_uuid) {
    throw proofRejected('accessToken: belongs to another user than provider_uuid');
  }
  if (addresses.status !== 200) {
    throw proofRejected(`accessToken: does not let ${providerName} tell its verified e-mail addresses`);
  }
  const verified = parse(emails, emailsUrl, addresses.body).some(
    (address) => address.verified && emailKey(address.email) === emailKey(claim.email),
  );
  if (!verified) throw proofRejected(`accessToken: email is not a verified address of this ${providerName} user`);
};
