import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '#lib/http/route.ts';
import type { Table } from '#lib/store/table.ts';
import { setFields } from '#lib/store/set-fields.ts';
import type { Account } from './account.ts';
import { accountFromItem, accountProfileKey, accountToItem, emailClaimKey, oauthClaimKey } from './account-item.ts';

export class EmailTakenError extends Error {}
export class OAuthIdentityTakenError extends Error {}
export class AlreadyInWorkspaceError extends Error {}

const isConditionFailure = (error: unknown): boolean => error instanceof ConditionalCheckFailedException;

export const getAccount = async (table: Table, accountId: string): Promise<Account | undefined> => {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: accountProfileKey(accountId), ConsistentRead: true }),
  );
  return Item && accountFromItem(Item);
};

export const findAccountByEmail = async (table: Table, email: string): Promise<Account | undefined> => {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: emailClaimKey(email), ConsistentRead: true }),
  );
  return Item ? getAccount(table, Item.accountId as string) : undefined;
};

export const findAccountByOAuth = async (table: Table, provider: string, providerUuid: string) => {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: oauthClaimKey(provider, providerUuid), ConsistentRead: true }),
  );
  return Item ? getAccount(table, Item.accountId as string) : undefined;
};

/** A registration that lost the race for its OAuth identity gives its address back, unless another took it over. */
const releaseEmailClaim = async (table: Table, claim: ReturnType<typeof emailClaimKey>, accountId: string) => {
  try {
    await table.doc.send(
      new DeleteCommand({
        TableName: table.name,
        Key: claim,
        ConditionExpression: 'accountId = :account',
        ExpressionAttributeValues: { ':account': accountId },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};

/**
 * Claims the address (and the OAuth identity, if any), then writes the profile. A claim left without a
 * profile by a crash between the writes is taken over by the next registration of the address or identity.
 */
export const createAccount = async (table: Table, account: Account): Promise<void> => {
  const claim = emailClaimKey(account.email);
  try {
    await table.doc.send(
      new PutCommand({
        TableName: table.name,
        Item: { ...claim, type: 'EMAIL_CLAIM', accountId: account.id },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if (await findAccountByEmail(table, account.email)) throw new EmailTakenError(account.email);
    await table.doc.send(new PutCommand({ TableName: table.name, Item: { ...claim, type: 'EMAIL_CLAIM', accountId: account.id } }));
  }
  if (account.oauth) {
    const { provider, providerUuid } = account.oauth;
    const oauthClaim = { ...oauthClaimKey(provider, providerUuid), type: 'OAUTH_CLAIM', accountId: account.id };
    try {
      await table.doc.send(
        new PutCommand({ TableName: table.name, Item: oauthClaim, ConditionExpression: 'attribute_not_exists(pk)' }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (await findAccountByOAuth(table, provider, providerUuid)) {
        await releaseEmailClaim(table, claim, account.id);
        throw new OAuthIdentityTakenError(providerUuid);
      }
      await table.doc.send(new PutCommand({ TableName: table.name, Item: oauthClaim }));
    }
  }
  await table.doc.send(
    new PutCommand({ TableName: table.name, Item: accountToItem(account), ConditionExpression: 'attribute_not_exists(pk)' }),
  );
};

/** Points the account at its workspace; only an account without one may join, so a race has one winner. */
export const joinWorkspace = async (
  table: Table,
  accountId: string,
  workspaceId: string,
  roles: Role[],
  now: string,
): Promise<Account> => {
  try {
    const { Attributes } = await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: accountProfileKey(accountId),
        UpdateExpression: 'SET businessId = :workspace, #roles = :roles, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(businessId) OR businessId = :none)',
        ExpressionAttributeNames: { '#roles': 'roles' },
        ExpressionAttributeValues: { ':workspace': workspaceId, ':roles': roles, ':now': now, ':none': null },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return accountFromItem(Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error)) throw new AlreadyInWorkspaceError(accountId);
    throw error;
  }
};

/** Sets plain profile fields (verification, password hash, names). */
export const updateAccount = async (
  table: Table,
  accountId: string,
  fields: Partial<Pick<Account, 'isVerified' | 'passwordHash' | 'firstName' | 'lastName'>>,
  now: string,
): Promise<Account> => {
  const { Attributes } = await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: accountProfileKey(accountId),
      ...setFields({ ...fields, updatedAt: now }),
      ConditionExpression: 'attribute_exists(pk)',
      ReturnValues: 'ALL_NEW',
    }),
  );
  return accountFromItem(Attributes ?? {});
};
