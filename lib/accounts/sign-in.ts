import { ForbiddenError, UnauthorizedError } from '#lib/contract/errors.ts';
import { emailKey, toUser, type Account } from './account.ts';
import { findAccountByOAuth } from './account-repository.ts';
import { findAddressHolder } from './address-holder.ts';
import { verifyOAuthIdentity } from './oauth-identity.ts';
import { decoyHash, verifyPassword } from './passwords.ts';
import type { LoginInput, OAuthLoginInput } from './schemas.ts';
import { startSession, tokenFields } from './sessions.ts';
import type { AccountScope } from '#lib/identity/scope.ts';

const notVerified = () =>
  new ForbiddenError('Email not verified: enter the code we e-mailed you, or ask for a new one', [
    'email: not verified yet',
  ]);

const signIn = async (scope: AccountScope, account: Account) => {
  if (!account.isVerified) throw notVerified();
  return { user: toUser(account), ...tokenFields(await startSession(scope, account)) };
};

/** An OAuth-only account has no password, so a password login fails for it exactly like a wrong password. */
export const login = async (scope: AccountScope, { email, password }: LoginInput) => {
  const account = await findAddressHolder(scope, email);
  const matches = await verifyPassword(password, account?.passwordHash ?? (await decoyHash()));
  if (!account?.passwordHash || !matches) throw new UnauthorizedError('Invalid email or password');
  return signIn(scope, account);
};

/**
 * The provider must vouch for the identity and the address first; then only the account registered
 * with that identity and address signs in.
 */
export const oauthLogin = async (scope: AccountScope, input: OAuthLoginInput) => {
  const { ports } = scope;
  const { provider, providerUuid } = await verifyOAuthIdentity(scope, input);
  const account = await findAccountByOAuth(ports.table, provider, providerUuid);
  if (!account || emailKey(account.email) !== emailKey(input.email))
    throw new UnauthorizedError('Invalid OAuth credentials');
  return signIn(scope, account);
};
