import { ConflictError } from '#lib/contract/errors.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { createWorkspace } from './workspace-repository.ts';
import type { Workspace } from './workspace.ts';
import { toUser, type Account, type AccountType } from '#lib/accounts/account.ts';
import {
  EmailTakenError,
  OAuthIdentityTakenError,
  createAccount,
  findAccountByOAuth,
} from '#lib/accounts/account-repository.ts';
import { verifyOAuthIdentity } from '#lib/accounts/oauth-identity.ts';
import { hashPassword } from '#lib/accounts/passwords.ts';
import type {
  OAuthRegisterBusinessInput,
  OAuthRegisterDeveloperInput,
  RegisterBusinessInput,
  RegisterDeveloperInput,
} from '#lib/accounts/schemas.ts';
import { startSession, tokenFields } from '#lib/accounts/sessions.ts';
import { sendVerificationCode } from '#lib/accounts/verification.ts';
import type { AccountScope } from '#lib/identity/scope.ts';
import { discardDisplaced } from './unproven-registrations.ts';

type User = ReturnType<typeof toUser>;

interface Person {
  email: string;
  firstName: string;
  lastName: string;
  experienceLevel?: string;
  githubUsername?: string;
}

const newAccount = (ports: Ports, accountType: AccountType, person: Person, secret: Partial<Account>): Account => {
  const now = ports.clock.now().toISOString();
  return {
    id: ports.ids.uuid(),
    email: person.email,
    firstName: person.firstName,
    lastName: person.lastName,
    isVerified: false,
    accountType,
    businessId: null,
    roles: [],
    ...(person.experienceLevel && { experienceLevel: person.experienceLevel }),
    ...(person.githubUsername && { githubUsername: person.githubUsername }),
    createdAt: now,
    updatedAt: now,
    ...secret,
  };
};

const emailTaken = () =>
  new ConflictError('Email already registered', ['email: an account with this address already exists']);

const identityTaken = () =>
  new ConflictError('OAuth identity already registered', ['provider_uuid: already linked to an account']);

/** Stores the account; an unverified registration of the address it displaced is discarded with its workspace. */
const store = async (scope: AccountScope, account: Account): Promise<void> => {
  try {
    await discardDisplaced(scope, await createAccount(scope.ports.table, account));
  } catch (error) {
    if (error instanceof EmailTakenError) throw emailTaken();
    if (error instanceof OAuthIdentityTakenError) throw identityTaken();
    throw error;
  }
};

/** The workspace of a business account, owned by it as ADMIN; returns the account pointing at it. */
const openWorkspace = (ports: Ports, owner: Account, input: RegisterBusinessInput | OAuthRegisterBusinessInput) => {
  const workspace: Workspace = {
    id: ports.ids.sortable(),
    businessName: input.businessName,
    ...(input.industry && { industry: input.industry }),
    ...(input.size && { size: input.size }),
    ...(input.timezone && { timezone: input.timezone }),
    createdAt: owner.createdAt,
    updatedAt: owner.createdAt,
  };
  return createWorkspace(ports.table, workspace, owner);
};

/** Password registrations: the account starts unverified and the address gets a code. */
const withPassword = async (scope: AccountScope, accountType: AccountType, person: Person, password: string) => {
  const account = newAccount(scope.ports, accountType, person, { passwordHash: await hashPassword(password) });
  await store(scope, account);
  return account;
};

/**
 * OAuth registrations: the provider vouched for the identity and the address, so the account is
 * verified and has no password. Nothing is written before the proof holds.
 */
const withOAuth = async (
  scope: AccountScope,
  accountType: AccountType,
  input: OAuthRegisterBusinessInput | OAuthRegisterDeveloperInput,
) => {
  const { ports } = scope;
  const identity = await verifyOAuthIdentity(scope, input);
  if (await findAccountByOAuth(ports.table, identity.provider, identity.providerUuid)) throw identityTaken();
  const account = newAccount(ports, accountType, input, { isVerified: true, oauth: identity });
  await store(scope, account);
  return account;
};

export const registerBusiness = async (scope: AccountScope, input: RegisterBusinessInput): Promise<{ user: User }> => {
  const account = await withPassword(scope, 'BUSINESS', input, input.password);
  const owner = await openWorkspace(scope.ports, account, input);
  await sendVerificationCode(scope, owner);
  return { user: toUser(owner) };
};

export const registerDeveloper = async (
  scope: AccountScope,
  input: RegisterDeveloperInput,
): Promise<{ user: User }> => {
  const account = await withPassword(scope, 'DEVELOPER', input, input.password);
  await sendVerificationCode(scope, account);
  return { user: toUser(account) };
};

export const oauthRegisterBusiness = async (scope: AccountScope, input: OAuthRegisterBusinessInput) => {
  const account = await withOAuth(scope, 'BUSINESS', input);
  const owner = await openWorkspace(scope.ports, account, input);
  return { user: toUser(owner), ...tokenFields(await startSession(scope, owner)) };
};

export const oauthRegisterDeveloper = async (scope: AccountScope, input: OAuthRegisterDeveloperInput) => {
  const account = await withOAuth(scope, 'DEVELOPER', input);
  return { user: toUser(account), ...tokenFields(await startSession(scope, account)) };
};
