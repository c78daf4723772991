import * as z from 'zod/mini';
import { emailAddress as email, ianaTimezone } from '#lib/contract/fields.ts';
import { ROLES } from '#lib/identity/caller.ts';
import { ACCOUNT_TYPES } from './account.ts';

const name = z
  .string()
  .check(z.trim(), z.minLength(1, 'is required'), z.maxLength(100, 'must be at most 100 characters'));

/** An upper bound too, since every login pays a slow hash over the whole password. */
const newPassword = z
  .string()
  .check(z.minLength(8, 'must be at least 8 characters'), z.maxLength(256, 'must be at most 256 characters'));
const presentedPassword = z
  .string()
  .check(z.minLength(1, 'is required'), z.maxLength(256, 'must be at most 256 characters'));

const otp = z
  .string()
  .check(
    z.trim(),
    z.regex(/^\d{6}$/, 'must be the 6-digit code from the e-mail'),
    z.describe(
      'The 6-digit code from the e-mail; valid 10 minutes, burnt for a client address after 5 wrong tries from it',
    ),
  );

const optionalText = z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100)));

const timezone = z.optional(ianaTimezone);

const businessFields = {
  businessName: z
    .string()
    .check(z.trim(), z.minLength(1, 'is required'), z.maxLength(200, 'must be at most 200 characters')),
  firstName: name,
  lastName: name,
  email,
  industry: optionalText,
  size: optionalText,
  timezone,
};

const developerFields = {
  firstName: name,
  lastName: name,
  email,
  experienceLevel: z
    .string()
    .check(z.trim(), z.minLength(1, 'is required'), z.maxLength(50, 'must be at most 50 characters')),
  githubUsername: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
};

/** The provider's own user id and the provider's name; together they are the identity an OAuth login names. */
const oauthFields = {
  provider_uuid: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'is required'),
      z.maxLength(256, 'must be at most 256 characters'),
      z.describe(
        "The account's user id at the OAuth provider: the ID token's `sub`, or the `id` of the provider's user API",
      ),
    ),
  oAuthProvider: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'is required'),
      z.maxLength(50, 'must be at most 50 characters'),
      z.describe(
        'The OAuth provider as this deployment names it (OAUTH_PROVIDERS), such as codehost-a; another name is 400',
      ),
    ),
  idToken: z
    .optional(
      z
        .string()
        .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(16_384, 'must be at most 16384 characters')),
    )
    .check(
      z.describe(
        "Proof of the identity from an OpenID Connect provider: an ID token it issued to this deployment's client id, " +
          'unexpired, with `sub` = provider_uuid and a verified `email` = email. One of idToken and accessToken; neither is a 401.',
      ),
    ),
  accessToken: z
    .optional(
      z
        .string()
        .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(4096, 'must be at most 4096 characters')),
    )
    .check(
      z.describe(
        'Proof of the identity from a provider without OpenID Connect (code host A): an access token whose owner, ' +
          "per the provider's user API, has id provider_uuid and email among its verified addresses. One of idToken and accessToken; neither is a 401.",
      ),
    ),
};

/**
 * At most one proof: both at once is a malformed request. Checked even when other fields are bad, so one 400
 * lists every problem; an object is all it needs, anything else already failed as a whole. No proof at all
 * is the identity check's 401 (DECISIONS.md: a missing proof answers 401), not a validation error.
 */
const oneProof = <T extends z.ZodMiniObject>(schema: T) =>
  schema.check(
    z.refine(
      (body: { idToken?: unknown; accessToken?: unknown }) =>
        body.idToken === undefined || body.accessToken === undefined,
      {
        path: ['idToken'],
        message: 'give one proof, idToken or accessToken, not both',
        when: ({ value }) => typeof value === 'object' && value !== null && !Array.isArray(value),
      },
    ),
  );

export const registerBusinessBody = z.object({ ...businessFields, password: newPassword });
export type RegisterBusinessInput = z.output<typeof registerBusinessBody>;

export const registerDeveloperBody = z.object({ ...developerFields, password: newPassword });
export type RegisterDeveloperInput = z.output<typeof registerDeveloperBody>;

export const oauthRegisterBusinessBody = oneProof(z.object({ ...businessFields, ...oauthFields }));
export type OAuthRegisterBusinessInput = z.output<typeof oauthRegisterBusinessBody>;

export const oauthRegisterDeveloperBody = oneProof(z.object({ ...developerFields, ...oauthFields }));
export type OAuthRegisterDeveloperInput = z.output<typeof oauthRegisterDeveloperBody>;

export const loginBody = z.object({ email, password: presentedPassword });
export type LoginInput = z.output<typeof loginBody>;

export const oauthLoginBody = oneProof(z.object({ email, ...oauthFields }));
export type OAuthLoginInput = z.output<typeof oauthLoginBody>;

/** What every OAuth route claims: an address and a provider identity, with the proof of both. */
export type OAuthClaim = OAuthLoginInput;

/**
 * The refresh token in the body, as the spec has it; the web console's is in its `HttpOnly` cookie instead
 * (lib/http/refresh-cookie.ts), so the body may leave it out when the cookie carries it.
 */
export const refreshTokenBody = z.object({
  refreshToken: z.optional(z.string().check(z.trim(), z.minLength(1, 'is required'), z.maxLength(4096))),
});

/**
 * Verifying proves the mailbox, not who chose the account's password: anyone may register any address. The
 * spec's body (`email`, `otp`) verifies the registration as it is; the mailbox's owner who did not register
 * it takes the address over with a password of their own (`newPassword`), which signs everyone else out, and
 * a registrant may confirm theirs (`password`), so a wrong one is refused before the code is used.
 */
export const verifyEmailBody = z
  .object({
    email,
    otp,
    password: z.optional(
      presentedPassword.check(
        z.describe('The password chosen at registration: the registrant verifying their own address'),
      ),
    ),
    newPassword: z.optional(
      newPassword.check(
        z.describe(
          'A new password for the address, replacing the one chosen at registration: the mailbox owner takes over an ' +
            'address someone else registered, and what that registration set up is discarded',
        ),
      ),
    ),
  })
  .check(
    z.refine((body) => body.password === undefined || body.newPassword === undefined, {
      path: ['newPassword'],
      message: 'give password or newPassword, not both',
    }),
  );
export type VerifyEmailInput = z.output<typeof verifyEmailBody>;

/** resend_otp and forgot-password: just the address. */
export const emailOnlyBody = z.object({ email });

export const resetPasswordBody = z.object({ email, otp, newPassword });
export type ResetPasswordInput = z.output<typeof resetPasswordBody>;

export const ssoDiscoveryQuery = z.object({ email });

/** What the auth routes answer in `data`: the User resource (`toUser`), tokens flat and under `tokens`. */
export const userData = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  isVerified: z.boolean(),
  accountType: z.enum(ACCOUNT_TYPES),
  businessId: z.nullable(z.string()),
  roles: z.array(z.enum(ROLES)),
  createdAt: z.string(),
});

const tokenPair = { accessToken: z.string(), refreshToken: z.string() };
export const tokensData = z.object({ ...tokenPair, tokens: z.object(tokenPair) });
export const sessionData = z.object({ user: userData, ...tokensData.shape });
export const registeredData = z.object({ user: userData });
export const emailData = z.object({ email: z.string() });
export const verificationData = z.object({ email: z.string(), isVerified: z.boolean() });
export const ssoDiscoveryData = z.union([
  z.object({ email: z.string(), ssoEnabled: z.literal(false) }),
  z.object({ email: z.string(), ssoEnabled: z.literal(true), protocol: z.string(), loginUrl: z.string() }),
]);
