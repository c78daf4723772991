import type { Scope } from '#lib/identity/scope.ts';
import { outsideAddressRepository } from './outside-address-repository.ts';
import { workspaceRepository } from './workspace-repository.ts';

/** What a page held back records, so a person reading the notifications sees why nothing went out. */
export const WAITING_FOR_CONFIRMATION = 'waiting for the address to confirm (docs/security.md, "Who a page may reach")';

/**
 * Which of `addresses` may not be mailed yet: neither a member's address nor an outside address that confirmed
 * (an alert address or contact named before confirmations existed has no record, and waits too). Two reads of a
 * few items each, and none when every address is a member's by id.
 */
export const unconfirmedAddresses = async (scope: Scope, addresses: readonly string[]): Promise<Set<string>> => {
  if (addresses.length === 0) return new Set();
  const { table } = scope.ports;
  const [members, named] = await Promise.all([
    workspaceRepository(table, scope.workspaceId).listMembers(),
    outsideAddressRepository(table, scope.workspaceId).listAddresses(),
  ]);
  const mayReceive = new Set([
    ...members.map(({ email }) => email.toLowerCase()),
    ...named.filter(({ status }) => status === 'CONFIRMED').map(({ address }) => address),
  ]);
  return new Set(addresses.map((address) => address.toLowerCase()).filter((address) => !mayReceive.has(address)));
};
