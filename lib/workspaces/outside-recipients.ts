import { ForbiddenError } from '#lib/contract/errors.ts';
import { mailBodyLine, mailSubject } from '#lib/escaping/mail.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { MailMessage } from '#lib/ports/mail/mail.ts';
import { sendOrAskAgain } from '#lib/ports/mail/send-or-ask-again.ts';
import { outsideAddressRepository } from './outside-address-repository.ts';
import { CONFIRMATION_LIFETIME_MS, signConfirmation } from './outside-address-token.ts';
import { workspaceRepository } from './workspace-repository.ts';

/** One `@` with something on each side and a dot in the domain: an address, not a member id or a tier name. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** At most one confirmation mail per address and workspace in this long, however often it is named (docs/decisions.md). */
const CONFIRMATION_MAIL_INTERVAL_MS = 15 * 60 * 1000;

/** The route the confirmation link opens, below the API's base URL (lib/routes/business.ts). */
const CONFIRM_PATH = '/api/v1/business/outside-addresses/confirm';

/** A recipient a setting names: the request field that names it (for a 403's `errors`) and what it names. */
export interface NamedRecipient {
  field: string;
  name: string;
}

/**
 * The addresses among `named` that no member of the workspace has, lower-cased and each once. Only an ADMIN may
 * name one (anyone else gets a 403 naming each field), since anyone who may write a policy could otherwise
 * have the service mail a stranger from the workspace's sender (issue 48, docs/security.md). A member's id, a
 * member's address and a name that reaches nobody (`tier-2`) are open to every writer and answer nothing here.
 */
export const outsideRecipients = async (scope: Scope, named: readonly NamedRecipient[]): Promise<string[]> => {
  const addresses = named
    .map(({ field, name }) => ({ field, address: name.trim().toLowerCase() }))
    .filter(({ address }) => EMAIL.test(address));
  if (addresses.length === 0) return [];
  const members = await workspaceRepository(scope.ports.table, scope.workspaceId).listMembers();
  const memberAddresses = new Set(members.map(({ email }) => email.toLowerCase()));
  const outside = addresses.filter(({ address }) => !memberAddresses.has(address));
  if (outside.length === 0) return [];
  const { caller } = scope;
  if (caller.kind !== 'user' || !caller.roles.includes('ADMIN')) {
    throw new ForbiddenError(
      'Only an ADMIN may name an address outside the workspace as a recipient',
      outside.map(({ field }) => `${field}: not the address of a member of this workspace`),
    );
  }
  return [...new Set(outside.map(({ address }) => address))];
};

const confirmationMail = (
  address: string,
  { link, token }: { link: string; token: string },
  { workspace, namedBy, namedAs }: { workspace: string; namedBy: string; namedAs: string },
): MailMessage => ({
  to: address,
  subject: mailSubject(`${workspace} asks to send incident alerts to this address`),
  text: [
    `${mailBodyLine(namedBy)}, an administrator of ${mailBodyLine(workspace)}, named this address as ${mailBodyLine(namedAs)} in their incident-management service.`,
    'Once you confirm, this address receives their incident pages: new incidents, escalations and missed SLA ' +
      'targets, each with a link to acknowledge the incident. Nothing is sent to it until you confirm.',
    `Confirm (the page asks once more before anything changes): ${link}`,
    'The link works for 7 days. If you do not know them, ignore this e-mail: nothing will be sent.',
  ].join('\n\n'),
  token,
});

/**
 * Records each outside address as named by the calling ADMIN for `namedAs` ("escalation contact of SLA policy
 * Checkout") and mails an address that has not confirmed one confirmation message, unless one went out in the
 * last CONFIRMATION_MAIL_INTERVAL_MS. Called once the setting is written; a refused mail is shrugged off
 * (naming the address again sends another).
 */
export const askToConfirm = async (
  scope: Scope,
  addresses: readonly string[],
  { namedAs, baseUrl }: { namedAs: string; baseUrl: string },
): Promise<void> => {
  if (addresses.length === 0) return;
  const { ports, workspaceId, caller } = scope;
  const workspaces = workspaceRepository(ports.table, workspaceId);
  const [workspace, admin] = await Promise.all([
    workspaces.getWorkspace(),
    caller.kind === 'user' ? workspaces.getMember(caller.userId) : undefined,
  ]);
  const namedBy = admin ? `${admin.firstName} ${admin.lastName}`.trim() || admin.email : 'An administrator';
  const repository = outsideAddressRepository(ports.table, workspaceId);
  const now = ports.clock.now().getTime();
  for (const address of addresses) {
    const mayMail = await repository.recordNaming(address, {
      namedAs,
      namedBy,
      now: new Date(now).toISOString(),
      mailedBefore: new Date(now - CONFIRMATION_MAIL_INTERVAL_MS).toISOString(),
    });
    if (!mayMail) continue;
    const expiresAt = new Date(now + CONFIRMATION_LIFETIME_MS).toISOString();
    const token = await signConfirmation(ports.signingKeys, { workspaceId, address, expiresAt });
    await sendOrAskAgain(
      ports.mail,
      confirmationMail(
        address,
        { link: `${baseUrl}${CONFIRM_PATH}/${token}`, token },
        {
          workspace: workspace?.businessName ?? 'A workspace',
          namedBy,
          namedAs,
        },
      ),
    );
  }
};
