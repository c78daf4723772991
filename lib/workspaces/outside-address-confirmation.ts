import { BadRequestError, HttpError, NotFoundError } from '#lib/contract/errors.ts';
import { escapeHtml } from '#lib/escaping/html.ts';
import type { AccountScope, Scope } from '#lib/identity/scope.ts';
import { outsideAddressRepository, type OutsideAddress } from './outside-address-repository.ts';
import { verifyConfirmation, type AddressConfirmation } from './outside-address-token.ts';
import { workspaceRepository } from './workspace-repository.ts';

/** A page of the confirmation link and the status it answers with. */
export interface ConfirmationPage {
  status: number;
  html: string;
}

const page = (status: number, title: string, body: string): ConfirmationPage => ({
  status,
  html: [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}',
    'button{font-size:1.1rem;padding:.6rem 1.4rem;cursor:pointer}</style>',
    `</head><body>${body}</body></html>`,
  ].join('\n'),
});

/**
 * The token checked: its MAC, its expiry, then the address named in the workspace it names (a token only ever
 * confirms that one address of that one workspace). Forged, altered or expired: 400; not named there: 404.
 */
const open = async (
  { ports }: AccountScope,
  token: string,
): Promise<{ confirmation: AddressConfirmation; named: OutsideAddress; workspace: string }> => {
  const confirmation = await verifyConfirmation(ports.signingKeys, token);
  if (!confirmation) {
    throw new BadRequestError('This confirmation link is not valid', ['token: not a link this service made']);
  }
  if (ports.clock.now().toISOString() >= confirmation.expiresAt) {
    throw new BadRequestError('This confirmation link has expired', [
      `token: expired at ${confirmation.expiresAt}; ask the workspace's administrator to name the address again`,
    ]);
  }
  const { workspaceId, address } = confirmation;
  const [named, workspace] = await Promise.all([
    outsideAddressRepository(ports.table, workspaceId).getAddress(address),
    workspaceRepository(ports.table, workspaceId).getWorkspace(),
  ]);
  if (!named || !workspace) {
    throw new NotFoundError('Nothing to confirm', ['token: the address is not named in its workspace']);
  }
  return { confirmation, named, workspace: workspace.businessName };
};

/** A refused link as a page a person reads: its status, the message and why. */
const refused = (error: unknown): ConfirmationPage => {
  if (!(error instanceof HttpError)) throw error;
  return page(
    error.statusCode,
    error.message,
    `<h1>${escapeHtml(error.message)}</h1>${error.errors.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}`,
  );
};

const alreadyConfirmed = (address: string, workspace: string, named: OutsideAddress): ConfirmationPage =>
  page(
    200,
    'Address confirmed',
    `<h1>Confirmed</h1><p>${escapeHtml(workspace)} may now send incident alerts to ${escapeHtml(address)}` +
      ` (confirmed at ${escapeHtml(named.confirmedAt ?? named.updatedAt)}).</p>`,
  );

/**
 * GET: what confirming means and a button that confirms by POST to the same address. Opening it changes nothing,
 * since mail scanners and link previews open links on their own.
 */
export const confirmationPage = async (scope: AccountScope, token: string): Promise<ConfirmationPage> => {
  try {
    const { confirmation, named, workspace } = await open(scope, token);
    if (named.status === 'CONFIRMED') return alreadyConfirmed(confirmation.address, workspace, named);
    return page(
      200,
      'Confirm this address',
      `<h1>Receive incident alerts from ${escapeHtml(workspace)}?</h1>` +
        `<p>${escapeHtml(named.namedBy)} named ${escapeHtml(confirmation.address)} as ` +
        `${escapeHtml(named.namedAs.join(', '))}. Once confirmed, it receives their incident pages: new ` +
        'incidents, escalations and missed SLA targets, each with a link to acknowledge the incident.</p>' +
        `<form method="post"><button type="submit">Confirm ${escapeHtml(confirmation.address)}</button></form>` +
        '<p>If you do not know them, close this page: nothing is sent.</p>',
    );
  } catch (error) {
    return refused(error);
  }
};

/** POST: the address confirmed for the token's workspace (again: the same answer, nothing changes). */
export const confirmAddress = async (scope: AccountScope, token: string): Promise<ConfirmationPage> => {
  try {
    const { confirmation, workspace } = await open(scope, token);
    const { ports } = scope;
    const confirmed = await outsideAddressRepository(ports.table, confirmation.workspaceId).confirmAddress(
      confirmation.address,
      ports.clock.now().toISOString(),
    );
    if (!confirmed) throw new NotFoundError('Nothing to confirm', ['token: the address is not named in its workspace']);
    return alreadyConfirmed(confirmation.address, workspace, confirmed);
  } catch (error) {
    return refused(error);
  }
};

/** The workspace's outside addresses, in address order, each with its status. */
export const listOutsideAddresses = ({ ports, workspaceId }: Scope): Promise<OutsideAddress[]> =>
  outsideAddressRepository(ports.table, workspaceId).listAddresses();
