import * as z from 'zod/mini';
import '#lib/contract/zod-locale.ts';
import { INTEGRATION_STATUSES, INTEGRATION_TYPES, RESOURCE_TYPES } from './integration.ts';

/** E.164: a plus, a country code that does not start with 0, at most 15 digits in all. */
const e164 = z
  .string()
  .check(
    z.trim(),
    z.regex(/^\+[1-9]\d{1,14}$/, 'must be an E.164 number such as +14155550123'),
    z.describe('E.164: +, country code and number, at most 15 digits'),
  );

const text = (max: number) => z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max));

export const oauthCallbackQuery = z.object({
  code: text(2000),
  state: text(4000),
});

export const chatWebhookBody = z.object({
  webhookUrl: z.url({ protocol: /^https?$/, error: 'must be an https URL' }).check(z.maxLength(2000)),
  channel: z.optional(text(100)),
  /** The chat app's signing secret, which its interaction requests (the buttons) are signed with. */
  signingSecret: z.optional(z.string().check(z.minLength(16), z.maxLength(200))),
});

const events = (defaults: string[], allowed: readonly string[]) =>
  z._default(z.array(z.enum(allowed as [string, ...string[]])).check(z.minLength(1), z.maxLength(20)), defaults);

const CODEHOST_A_EVENTS = [
  'push',
  'pull_request',
  'deployment_status',
  'deployment',
  'workflow_run',
  'check_run',
  'check_suite',
  'release',
  'issues',
  'status',
] as const;

export const codehostAWebhookBody = z.object({
  repoFullName: z.string().check(z.trim(), z.regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/repository'), z.maxLength(200)),
  events: events(['push', 'pull_request', 'deployment_status'], CODEHOST_A_EVENTS),
});

const CODEHOST_B_EVENTS = [
  'push',
  'merge_requests',
  'pipeline',
  'tag_push',
  'issues',
  'note',
  'job',
  'deployment',
  'releases',
] as const;

export const codehostBWebhookBody = z.object({
  projectId: z.pipe(
    z.union([
      z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(300)),
      z.int().check(z.positive()),
    ]),
    z.transform(String),
  ),
  events: events(['push', 'merge_requests', 'pipeline'], CODEHOST_B_EVENTS),
});

export const smsConnectBody = z.object({
  phoneNumber: e164,
  provider: z.optional(text(50)),
});

export const messagingAppConnectBody = z.object({ phoneNumber: e164 });

export const userIdParams = z.object({ userId: text(64) });

export const disconnectParams = z.object({
  userId: text(64),
  integrationType: z.enum(INTEGRATION_TYPES),
});

/** Response shapes. */
export const integrationSchema = z.object({
  id: z.string(),
  type: z.enum(RESOURCE_TYPES),
  userId: z.string(),
  integrationType: z.enum(INTEGRATION_TYPES),
  status: z.enum(INTEGRATION_STATUSES),
  statusReason: z.nullable(z.string()),
  connectedAt: z.string(),
  updatedAt: z.string(),
  phoneNumber: z.optional(z.string()),
  provider: z.optional(z.string()),
  channel: z.optional(z.string()),
});

export const connectStartSchema = z.object({ authUrl: z.string(), expiresAt: z.string() });

export const chatWebhookSchema = z.object({
  type: z.literal('CHAT'),
  integrationType: z.literal('chat'),
  channel: z.nullable(z.string()),
  webhookHost: z.string(),
  /** Whether a signing secret is set (the secret itself is never answered): the buttons work only with one. */
  buttons: z.boolean(),
  /** The URL to give the chat app as its interactivity request URL. */
  interactionsUrl: z.string(),
  registeredAt: z.string(),
});

export const registeredHookSchema = z.object({
  id: z.string(),
  target: z.string(),
  events: z.array(z.string()),
  deliveryUrl: z.string(),
  registeredAt: z.string(),
});

export const repoSchema = z.object({
  id: z.string(),
  fullName: z.string(),
  defaultBranch: z.nullable(z.string()),
  private: z.boolean(),
});

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  pathWithNamespace: z.string(),
  defaultBranch: z.nullable(z.string()),
});

/** A chat user id as the provider names it (Slack's `U…`/`W…`). */
export const chatUserParams = z.object({
  chatUserId: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a chat user id (letters and digits)')),
});

export const chatUserLinkBody = z.object({
  memberId: z.string().check(z.minLength(1), z.maxLength(100)),
  /** The signed link a press of an unlinked user was answered with: a member linking themselves needs it. */
  linkToken: z.optional(z.string().check(z.maxLength(2000))),
});

export const chatUserLinkSchema = z.object({
  chatUserId: z.string(),
  memberId: z.string(),
  linkedBy: z.string(),
  linkedAt: z.string(),
});

/** The interaction's request URL names the workspace; nothing trusts it before the signature holds. */
export const chatInteractionQuery = z.object({ workspace: z.string().check(z.minLength(1), z.maxLength(100)) });

export const chatInteractionSchema = z.object({
  outcome: z.enum(['ACKNOWLEDGED', 'RESOLVED', 'ESCALATED', 'NOT_DONE', 'NOT_LINKED', 'REFUSED', 'ALREADY_HANDLED']),
  text: z.string(),
});
