import { accountScope } from '#lib/identity/scope.ts';
import { sessionVersionOf } from '#lib/accounts/account.ts';
import { accountRepository } from '#lib/accounts/account-repository.ts';
import { verifyAccessToken } from '#lib/accounts/tokens.ts';
import { authenticateApiKey } from '#lib/api-keys/api-key-authentication.ts';
import { vouchedKeyOf } from '#lib/api-keys/api-key-gate.ts';
import { UnauthorizedError } from '#lib/contract/errors.ts';
import type { CallerResolver } from '#lib/http/middlewares/authentication.ts';

/** Whom an access token or an API key names, as the accounts and API-key capabilities decide it. */
export const callerResolver: CallerResolver = {
  /**
   * One strongly consistent read of the account decides everything: whether the token was issued before a
   * credential change (its session version is behind), and the workspace and role the account has now.
   */
  user: async (ports, token) => {
    const claims = await verifyAccessToken(ports.signingKeys, token, ports.clock.now());
    const account = await accountRepository(ports.table, claims.accountId).getAccount();
    if (!account) throw new UnauthorizedError('Invalid token');
    if (claims.sessionVersion !== sessionVersionOf(account)) {
      throw new UnauthorizedError('Signed out: the account credentials changed, please log in again');
    }
    if (claims.familyId !== undefined && Object.hasOwn(account.revokedLogins ?? {}, claims.familyId)) {
      throw new UnauthorizedError('Signed out: this login was revoked, please log in again');
    }
    return {
      kind: 'user',
      userId: account.id,
      email: account.email,
      workspaceId: account.businessId,
      roles: account.roles,
    };
  },
  /** A key the gateway's authorizer vouched for moments ago is not read again (lib/api-keys/api-key-gate.ts). */
  apiKey: async (ports, raw, vouched) => {
    const trusted = vouchedKeyOf(vouched, raw);
    if (trusted) {
      const { keyId, name, workspaceId, scopes } = trusted;
      return { kind: 'apiKey', keyId, name, workspaceId, scopes };
    }
    const key = await authenticateApiKey(accountScope({ kind: 'anonymous' }, ports), raw);
    return { kind: 'apiKey', keyId: key.id, name: key.name, workspaceId: key.workspaceId, scopes: key.scopes };
  },
};
