import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { sendPasswordResetCode, resetPassword } from '#lib/accounts/password-reset.ts';
import {
  oauthRegisterBusiness,
  oauthRegisterDeveloper,
  registerBusiness,
  registerDeveloper,
} from '#lib/workspaces/registration.ts';
import { refreshSession, tokenFields } from '#lib/accounts/sessions.ts';
import { login, oauthLogin } from '#lib/accounts/sign-in.ts';
import { discoverSso } from '#lib/workspaces/sso-settings.ts';
import { resendVerificationCode, verifyEmail } from '#lib/accounts/verification.ts';
import { auth } from '#lib/routes/auth.ts';

const REGISTERED = 'Account created: check your e-mail for the verification code';

export const handler = createGroupHandler(auth, {
  login: async ({ accountScope, body }) => ok(await login(accountScope, body), { message: 'Logged in' }),
  refreshToken: async ({ accountScope, body }) =>
    ok(tokenFields(await refreshSession(accountScope, body.refreshToken)), { message: 'Token refreshed' }),
  oauthLogin: async ({ accountScope, body }) => ok(await oauthLogin(accountScope, body), { message: 'Logged in' }),
  ssoDiscovery: async ({ accountScope, query }) =>
    ok(await discoverSso(accountScope, query.email), { message: 'SSO settings' }),
  registerDeveloper: async ({ accountScope, body }) =>
    created(await registerDeveloper(accountScope, body), { message: REGISTERED }),
  registerBusiness: async ({ accountScope, body }) =>
    created(await registerBusiness(accountScope, body), { message: REGISTERED }),
  oauthRegisterDeveloper: async ({ accountScope, body }) =>
    created(await oauthRegisterDeveloper(accountScope, body), { message: 'Account created' }),
  oauthRegisterBusiness: async ({ accountScope, body }) =>
    created(await oauthRegisterBusiness(accountScope, body), { message: 'Account created' }),
  verifyEmail: async ({ accountScope, body }) => {
    const { alreadyVerified, ...verification } = await verifyEmail(accountScope, body);
    return ok(verification, { message: alreadyVerified ? 'Email already verified' : 'Email verified' });
  },
  resendOtp: async ({ accountScope, body }) => {
    await resendVerificationCode(accountScope, body.email);
    return ok({ email: body.email }, { message: 'If the address awaits verification, a new code is on its way' });
  },
  forgotPassword: async ({ accountScope, body }) => {
    await sendPasswordResetCode(accountScope, body.email);
    return ok({ email: body.email }, { message: 'If an account uses this address, a reset code is on its way' });
  },
  resetPassword: async ({ accountScope, body }) => {
    await resetPassword(accountScope, body);
    return ok({ email: body.email }, { message: 'Password changed: log in with the new password' });
  },
});
