import type { APIGatewayProxyEvent } from 'aws-lambda';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { auth } from '#lib/routes/auth.ts';
import { clientSubject } from '#lib/http/rate-limit/limit-window-repository.ts';
import { clearedRefreshCookie, refreshCookie, refreshTokenFromCookie } from '#lib/http/refresh-cookie.ts';
import { BadRequestError } from '#lib/contract/errors.ts';

const REGISTERED = 'Account created: check your e-mail for the verification code';

/** The body's refresh token as the spec has it, else the console's cookie's. */
const presentedRefreshToken = (body: { refreshToken?: string | undefined }, headers: Record<string, string>) => {
  const token = body.refreshToken ?? refreshTokenFromCookie(headers);
  if (!token) throw new BadRequestError('Validation failed', ['refreshToken: is required']);
  return token;
};

/** Services load on their route's first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const signIn = onFirstUse(() => import('#lib/accounts/sign-in.ts'));
const registration = onFirstUse(() => import('#lib/workspaces/registration.ts'));
const verification = onFirstUse(() => import('#lib/accounts/verification.ts'));
const passwordReset = onFirstUse(() => import('#lib/accounts/password-reset.ts'));
const addressProof = onFirstUse(() => import('#lib/workspaces/address-proof.ts'));
const sessionsModule = onFirstUse(() => import('#lib/accounts/sessions.ts'));
const ssoSettingsModule = onFirstUse(() => import('#lib/workspaces/sso-settings.ts'));
/** The refresh cookie lives as long as the refresh token; the token module loads with the sign-in anyway. */
const cookieLifetime = async () => (await import('#lib/accounts/tokens.ts')).REFRESH_TOKEN_TTL_SECONDS;

/** Every answer that starts or renews a session (password, OAuth, refresh) sets the console's refresh cookie the same way. */
const sessionCookie = async (
  session: { refreshToken: string },
  event: APIGatewayProxyEvent,
  headers: Record<string, string>,
) => ({ 'set-cookie': refreshCookie(event, headers, session.refreshToken, await cookieLifetime()) });

export const handler = createGroupHandler(auth, {
  login: async ({ accountScope, body, event, headers }) => {
    const session = await (await signIn()).login(accountScope, body);
    return ok(session, { message: 'Logged in', headers: await sessionCookie(session, event, headers) });
  },
  refreshToken: async ({ accountScope, body, event, headers }) => {
    const { refreshSession, tokenFields } = await sessionsModule();
    const tokens = await refreshSession(accountScope, presentedRefreshToken(body, headers));
    return ok(tokenFields(tokens), {
      message: 'Token refreshed',
      headers: await sessionCookie(tokens, event, headers),
    });
  },
  logout: async ({ accountScope, body, event, headers }) => {
    await (await sessionsModule()).endSession(accountScope, presentedRefreshToken(body, headers));
    return ok({}, { message: 'Logged out', headers: { 'set-cookie': clearedRefreshCookie(event, headers) } });
  },
  oauthLogin: async ({ accountScope, body, event, headers }) => {
    const session = await (await signIn()).oauthLogin(accountScope, body);
    return ok(session, { message: 'Logged in', headers: await sessionCookie(session, event, headers) });
  },
  ssoDiscovery: async ({ accountScope, query }) => {
    const { discoverSso } = await ssoSettingsModule();
    return ok(await discoverSso(accountScope, query.email), { message: 'SSO settings' });
  },
  registerDeveloper: async ({ accountScope, body }) =>
    created(await (await registration()).registerDeveloper(accountScope, body), { message: REGISTERED }),
  registerBusiness: async ({ accountScope, body }) =>
    created(await (await registration()).registerBusiness(accountScope, body), { message: REGISTERED }),
  oauthRegisterDeveloper: async ({ accountScope, body, event, headers }) => {
    const session = await (await registration()).oauthRegisterDeveloper(accountScope, body);
    return created(session, { message: 'Account created', headers: await sessionCookie(session, event, headers) });
  },
  oauthRegisterBusiness: async ({ accountScope, body, event, headers }) => {
    const session = await (await registration()).oauthRegisterBusiness(accountScope, body);
    return created(session, { message: 'Account created', headers: await sessionCookie(session, event, headers) });
  },
  verifyEmail: async ({ accountScope, body, sourceIp }) => {
    const { verifyEmail } = await addressProof();
    const { alreadyVerified, ...verified } = await verifyEmail(accountScope, {
      ...body,
      requester: clientSubject(sourceIp),
    });
    return ok(verified, { message: alreadyVerified ? 'Email already verified' : 'Email verified' });
  },
  resendOtp: async ({ accountScope, body }) => {
    await (await verification()).resendVerificationCode(accountScope, body.email);
    return ok({ email: body.email }, { message: 'If the address awaits verification, a new code is on its way' });
  },
  forgotPassword: async ({ accountScope, body }) => {
    await (await passwordReset()).sendPasswordResetCode(accountScope, body.email);
    return ok({ email: body.email }, { message: 'If an account uses this address, a reset code is on its way' });
  },
  resetPassword: async ({ accountScope, body, sourceIp }) => {
    await (await addressProof()).resetPassword(accountScope, { ...body, requester: clientSubject(sourceIp) });
    return ok({ email: body.email }, { message: 'Password changed: log in with the new password' });
  },
});
