import type { Role } from '#lib/http/route.ts';

export const ACCOUNT_TYPES = ['DEVELOPER', 'BUSINESS'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export interface OAuthIdentity {
  provider: string;
  providerUuid: string;
}

/** A person who can sign in; belongs to at most one workspace (`businessId`), with roles there. */
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

/** E-mail addresses compare without case or surrounding space. */
export const emailKey = (email: string): string => encodeURIComponent(email.trim().toLowerCase());
