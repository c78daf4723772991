import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiRequest } from '#lib/importers/workspace-api.ts';
import type { HttpClient } from '../support/local-stack.ts';

/** Exports shaped as the PagerDuty and Opsgenie REST APIs answer (docs/migrating.md, "Importing"). */
const IMPORT_FIXTURES = fileURLToPath(new URL('../fixtures/importers', import.meta.url));

/** A copy of a fixture export, since `--apply` records its invitations beside the export. */
export const exportCopy = (tool: 'pagerduty' | 'opsgenie'): string => {
  const folder = mkdtempSync(join(tmpdir(), `import-${tool}-`));
  cpSync(join(IMPORT_FIXTURES, tool), folder, { recursive: true });
  return folder;
};

const POLICIES = '/api/v1/escalation-policies';

/** The workspace's API as the importer calls it, signed in as `auth`. */
export const apiAs =
  (client: HttpClient, auth: Record<string, string>): ApiRequest =>
  (method, path, body) =>
    client.request(method, path, body, auth);

/** The workspace's API, with the bodies the importer posts to the escalation-policy route kept to be read. */
export const withPolicyRoutes = (request: ApiRequest) => {
  const posted: Record<string, any>[] = [];
  const api: ApiRequest = async (method, path, body) => {
    if (path === POLICIES && method === 'POST') posted.push(body as Record<string, any>);
    return request(method, path, body);
  };
  return { api, posted };
};

/** The stack's API with the escalation-policy routes missing, as before issue 43 (the route-miss 404). */
export const withoutPolicyRoutes =
  (request: ApiRequest): ApiRequest =>
  (method, path, body) =>
    path === POLICIES
      ? Promise.resolve({ status: 404, body: { success: false, message: 'Not found' } })
      : request(method, path, body);

/**
 * Someone the importer invited accepts through the mailed token, as they would from the e-mail: the latest one, or
 * the one from `workspace` when a test invites the same address to several.
 */
export const acceptInvitation = async (client: HttpClient, email: string, workspace = ''): Promise<void> => {
  const mail = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`);
  const token = (mail.body.data as { token?: string; subject?: string }[]).findLast(
    (message) => message.token && message.subject?.includes(workspace),
  )?.token;
  const accepted = await client.request('POST', '/api/v1/business/accept-invite', {
    token,
    password: 'a long enough password',
    firstName: 'Invited',
    lastName: 'Person',
  });
  if (accepted.status !== 200) throw new Error(`accept-invite: ${accepted.status} ${accepted.text}`);
};
