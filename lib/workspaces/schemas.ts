import * as z from 'zod';
import { emailAddress as email, ianaTimezone } from '#lib/contract/fields.ts';
import { ROLES } from '#lib/identity/caller.ts';
import { SSO_PROTOCOLS } from './sso.ts';

const text = (max: number) => z.string().trim().min(1).max(max);

/** A head-count range as sign-up forms offer it: `1-10`, `11-50`, `1000+`. */
const sizeRange = z
  .string()
  .trim()
  .regex(/^\d{1,7}(-\d{1,7}|\+)$/, 'must be a range such as 11-50 or 1000+')
  .refine((value) => {
    const [low, high] = value.split('-').map(Number);
    return high === undefined || (low ?? 0) <= high;
  }, 'the range must start at or below its end')
  .describe('Head-count range, such as 11-50 or 1000+');

export const setupBusinessBody = z.object({
  businessName: text(200),
  industry: text(100).optional(),
  size: sizeRange.optional(),
  timezone: ianaTimezone.optional(),
});

export const sendInviteBody = z.object({
  email,
  role: z.enum(ROLES),
  accessPermissions: z.array(text(100)).max(50),
  level: text(50).optional(),
});

export const inviteTokenBody = z.object({
  token: z.string().trim().min(1).max(512).describe('The token from the invitation e-mail'),
});

/**
 * `password`, `firstName` and `lastName` are required when the invited address has no account yet.
 * For an unverified account `password` is required and becomes its password; for a verified one it
 * proves ownership unless the request carries that account's Bearer token.
 */
export const acceptInviteBody = inviteTokenBody.extend({
  password: z.string().min(8).max(256).optional(),
  firstName: text(100).optional(),
  lastName: text(100).optional(),
});

export const memberParams = z.object({
  userId: z.string().trim().min(1).max(64).describe("The member's user id, as get_members lists it"),
});

export const changeMemberRoleBody = z.object({ role: z.enum(ROLES) });

const imsFields = {
  alertEmail: email,
  timezone: ianaTimezone,
  /** A chat channel name or id; null clears it. */
  slackChannel: text(200).nullable(),
  slaEnabled: z.boolean(),
  autoEscalate: z.boolean(),
  notifyOnCreate: z.boolean(),
  notifyOnResolve: z.boolean(),
};

export const imsSetupBody = z.object({
  alertEmail: imsFields.alertEmail,
  timezone: imsFields.timezone,
  slackChannel: imsFields.slackChannel.optional(),
  slaEnabled: imsFields.slaEnabled.default(false),
  autoEscalate: imsFields.autoEscalate.default(false),
  notifyOnCreate: imsFields.notifyOnCreate.default(true),
  notifyOnResolve: imsFields.notifyOnResolve.default(true),
});

export const imsUpdateBody = z
  .object({
    alertEmail: imsFields.alertEmail.optional(),
    timezone: imsFields.timezone.optional(),
    slackChannel: imsFields.slackChannel.optional(),
    slaEnabled: imsFields.slaEnabled.optional(),
    autoEscalate: imsFields.autoEscalate.optional(),
    notifyOnCreate: imsFields.notifyOnCreate.optional(),
    notifyOnResolve: imsFields.notifyOnResolve.optional(),
  })
  .refine((fields) => Object.values(fields).some((value) => value !== undefined), {
    message: `give at least one of ${Object.keys(imsFields).join(', ')}`,
  });

const ssoDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(z.regexes.domain, 'must be an e-mail domain such as example.com');

export const ssoSettingsBody = z.object({
  enabled: z.boolean(),
  protocol: z.enum(SSO_PROTOCOLS),
  loginUrl: z.url({ protocol: /^https$/, hostname: z.regexes.domain, error: 'must be an https URL' }).max(2048),
  domains: z
    .array(ssoDomain)
    .min(1)
    .max(20)
    .transform((domains) => [...new Set(domains)])
    .describe('E-mail domains whose people sign in with this identity provider; a domain belongs to one workspace'),
});

export type SetupBusinessInput = z.output<typeof setupBusinessBody>;
export type SendInviteInput = z.output<typeof sendInviteBody>;
export type AcceptInviteInput = z.output<typeof acceptInviteBody>;
export type ChangeMemberRoleInput = z.output<typeof changeMemberRoleBody>;
export type ImsSetupInput = z.output<typeof imsSetupBody>;
export type ImsUpdateInput = z.output<typeof imsUpdateBody>;
export type SsoSettingsInput = z.output<typeof ssoSettingsBody>;
