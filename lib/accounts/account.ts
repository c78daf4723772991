import type { Role } from '#lib/identity/caller.ts';

export const ACCOUNT_TYPES = ['DEVELOPER', 'BUSINESS'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export interface OAuthIdentity {
  provider: string;
  providerUuid: string;
}

/**
 * A person who can sign in; belongs to at most one workspace (`businessId`) with one role there (`roles`).
 * These two fields are where a membership takes effect: every Bearer request reads this one item, and
 * every membership change writes it first (docs/data-model.md 5.2), so a removal or a role change
 * applies on the very next request.
 */
export interface Account {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  isVerified: boolean;
  accountType: AccountType;
  businessId: string | null;
  roles: Role[];
  passwordHash?: string;
  /**
   * Raised by every credential change (password reset, an invitation taking over an unverified account);
   * tokens carry the version they were issued under and stop working once it moves. Absent means 0.
   */
  sessionVersion?: number;
  /**
   * Logins (refresh families) revoked within an access token's lifetime, by family id, with the second of
   * their revocation: their access tokens fail on the very next request, with no read beyond this item.
   */
  revokedLogins?: Record<string, number>;
  oauth?: OAuthIdentity;
  experienceLevel?: string;
  githubUsername?: string;
  createdAt: string;
  updatedAt: string;
}

/** The User resource of the spec: the account without its secrets. */
export const toUser = (account: Account) => ({
  id: account.id,
  email: account.email,
  firstName: account.firstName,
  lastName: account.lastName,
  isVerified: account.isVerified,
  accountType: account.accountType,
  businessId: account.businessId,
  roles: account.roles,
  createdAt: account.createdAt,
});

export const sessionVersionOf = (account: Account): number => account.sessionVersion ?? 0;

/** E-mail addresses compare without case or surrounding space. */
export const emailKey = (email: string): string => encodeURIComponent(email.trim().toLowerCase());
