import * as z from 'zod/mini';
import { emailAddress as email, ianaTimezone } from '#lib/contract/fields.ts';
import { ROLES } from '#lib/identity/caller.ts';
import { SSO_PROTOCOLS } from './sso.ts';
import { PUBLIC_MAIL_DOMAINS } from './public-mail-domains.ts';
import { userData } from '#lib/accounts/schemas.ts';
import { nullableText } from '#lib/contract/response-fields.ts';

const text = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));

/** A head-count range as sign-up forms offer it: `1-10`, `11-50`, `1000+`. */
const sizeRange = z.string().check(
  z.trim(),
  z.regex(/^\d{1,7}(-\d{1,7}|\+)$/, 'must be a range such as 11-50 or 1000+'),
  z.refine((value) => {
    const [low, high] = value.split('-').map(Number);
    return high === undefined || (low ?? 0) <= high;
  }, 'the range must start at or below its end'),
  z.describe('Head-count range, such as 11-50 or 1000+'),
);

export const setupBusinessBody = z.object({
  businessName: text(200),
  industry: z.optional(text(100)),
  size: z.optional(sizeRange),
  timezone: z.optional(ianaTimezone),
});

export const sendInviteBody = z.object({
  email,
  role: z.enum(ROLES),
  accessPermissions: z.array(text(100)).check(z.maxLength(50)),
  level: z.optional(text(50)),
});

export const inviteTokenBody = z.object({
  token: z
    .string()
    .check(z.trim(), z.minLength(1), z.maxLength(512), z.describe('The token from the invitation e-mail')),
});

/**
 * `password`, `firstName` and `lastName` are required when the invited address has no account yet.
 * For an unverified account `password` is required and becomes its password; for a verified one it
 * proves ownership unless the request carries that account's Bearer token.
 */
export const acceptInviteBody = z.extend(inviteTokenBody, {
  password: z.optional(z.string().check(z.minLength(8), z.maxLength(256))),
  firstName: z.optional(text(100)),
  lastName: z.optional(text(100)),
});

export const memberParams = z.object({
  userId: z
    .string()
    .check(z.trim(), z.minLength(1), z.maxLength(64), z.describe("The member's user id, as get_members lists it")),
});

export const changeMemberRoleBody = z.object({ role: z.enum(ROLES) });

const imsFields = {
  alertEmail: email,
  timezone: ianaTimezone,
  /** A chat channel name or id; null clears it. */
  slackChannel: z.nullable(text(200)),
  slaEnabled: z.boolean(),
  autoEscalate: z.boolean(),
  notifyOnCreate: z.boolean(),
  notifyOnResolve: z.boolean(),
};

export const imsSetupBody = z.object({
  alertEmail: imsFields.alertEmail,
  timezone: imsFields.timezone,
  slackChannel: z.optional(imsFields.slackChannel),
  slaEnabled: z._default(imsFields.slaEnabled, false),
  autoEscalate: z._default(imsFields.autoEscalate, false),
  notifyOnCreate: z._default(imsFields.notifyOnCreate, true),
  notifyOnResolve: z._default(imsFields.notifyOnResolve, true),
});

export const imsUpdateBody = z
  .object({
    alertEmail: z.optional(imsFields.alertEmail),
    timezone: z.optional(imsFields.timezone),
    slackChannel: z.optional(imsFields.slackChannel),
    slaEnabled: z.optional(imsFields.slaEnabled),
    autoEscalate: z.optional(imsFields.autoEscalate),
    notifyOnCreate: z.optional(imsFields.notifyOnCreate),
    notifyOnResolve: z.optional(imsFields.notifyOnResolve),
  })
  .check(
    z.refine((fields) => Object.values(fields).some((value) => value !== undefined), {
      message: `give at least one of ${Object.keys(imsFields).join(', ')}`,
    }),
  );

/**
 * zod's own `regexes.domain`. Reaching it through `z.regexes` would keep every regex zod has (6 KB) in the
 * bundle: esbuild cannot tell which member of a namespace read as a value is used.
 */
const DOMAIN_NAME = /^(?=.{1,253}$)([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/;

const ssoDomain = z.string().check(
  z.trim(),
  z.toLowerCase(),
  z.regex(DOMAIN_NAME, 'must be an e-mail domain such as example.com'),
  z.refine((domain) => !PUBLIC_MAIL_DOMAINS.has(domain), 'is a public mail domain, which no workspace owns'),
);

export const ssoSettingsBody = z.object({
  enabled: z.boolean(),
  protocol: z.enum(SSO_PROTOCOLS),
  loginUrl: z
    .url({ protocol: /^https$/, hostname: DOMAIN_NAME, error: 'must be an https URL' })
    .check(z.maxLength(2048)),
  domains: z
    .pipe(
      z.array(ssoDomain).check(z.minLength(1), z.maxLength(20)),
      z.transform((domains) => [...new Set(domains)]),
    )
    .check(
      z.describe(
        'E-mail domains whose people sign in with this identity provider; a domain belongs to one workspace, ' +
          'which proves it with the TXT record `domainVerification` names; public mail domains are refused',
      ),
    ),
});

export type SetupBusinessInput = z.output<typeof setupBusinessBody>;
export type SendInviteInput = z.output<typeof sendInviteBody>;
export type AcceptInviteInput = z.output<typeof acceptInviteBody>;
export type ImsSetupInput = z.output<typeof imsSetupBody>;
export type ImsUpdateInput = z.output<typeof imsUpdateBody>;
export type SsoSettingsInput = z.output<typeof ssoSettingsBody>;

const workspaceData = z.object({
  id: z.string(),
  businessName: z.string(),
  industry: nullableText,
  size: nullableText,
  timezone: nullableText,
  createdAt: z.string(),
});

/** The caller's workspace as pages for people read it. */
export const workspaceSummaryData = z.object({
  id: z.string(),
  businessName: z.string(),
  timezone: z
    .string()
    .check(
      z.describe(
        "The IANA zone people read the workspace's times in: the IMS configuration's, else the one given at registration, else UTC",
      ),
    ),
});

/** 201 when the call created the workspace, 200 when it updated it. */
export const setupBusinessData = z.object({ workspace: workspaceData, user: userData });

export const memberData = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(ROLES),
  level: nullableText,
  accessPermissions: z.array(z.string()),
  status: z.literal('ACTIVE'),
});

export const removedMemberData = z.object({ id: z.string() });

export const decodedInviteData = z.object({
  email: z.string(),
  role: z.enum(ROLES),
  businessName: z.string(),
  expiresAt: z.string(),
});

export const acceptedInviteData = z.object({ user: userData, businessId: z.string(), role: z.enum(ROLES) });

export const sentInviteData = z.object({ inviteId: z.string(), email: z.string(), expiresAt: z.string() });

export const imsConfigData = z.object({
  alertEmail: z.string(),
  timezone: z.string(),
  slackChannel: nullableText,
  slaEnabled: z.boolean(),
  autoEscalate: z.boolean(),
  /** When `autoEscalate` was last turned on; escalation counts from then. Absent while it never was. */
  autoEscalateSince: z.optional(z.string()),
  notifyOnCreate: z.boolean(),
  notifyOnResolve: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A workspace that never configured SSO answers it disabled, with nulls. */
export const ssoSettingsData = z.object({
  enabled: z.boolean(),
  protocol: z.nullable(z.enum(SSO_PROTOCOLS)),
  loginUrl: nullableText,
  domains: z.array(z.string()),
  updatedAt: nullableText,
  domainVerification: z
    .object({ txtRecordName: z.string(), txtRecordValue: z.string() })
    .check(z.describe('The TXT record each listed domain must publish, `<domain>` standing for the domain')),
});
