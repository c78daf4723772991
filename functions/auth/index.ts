import { created, ok } from '#lib/http/envelope.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { sendPasswordResetCode, resetPassword } from '#lib/accounts/password-reset.ts';
import {
  oauthRegisterBusiness,
  oauthRegisterDeveloper,
  registerBusiness,
  registerDeveloper,
} from '#lib/accounts/registration.ts';
import { refreshSession, tokenFields } from '#lib/accounts/sessions.ts';
import { discoverSso, login, oauthLogin } from '#lib/accounts/sign-in.ts';
import { resendVerificationCode, verifyEmail } from '#lib/accounts/verification.ts';
import { auth } from '#lib/routes/auth.ts';

const REGISTERED = 'Account created: check your e-mail for the verification code';

export const handler = createGroupHandler(auth, {
  login: async ({ body, runtime }) => ok(await login(runtime, body), { message: 'Logged in' }),
  refreshToken: async ({ body, runtime }) =>
    ok(tokenFields(await refreshSession(runtime, body.refreshToken)), { message: 'Token refreshed' }),
  oauthLogin: async ({ body, runtime }) => ok(await oauthLogin(runtime, body), { message: 'Logged in' }),
  ssoDiscovery: async ({ query, runtime }) => ok(await discoverSso(runtime, query.email), { message: 'SSO settings' }),
  registerDeveloper: async ({ body, runtime }) =>
    created(await registerDeveloper(runtime, body), { message: REGISTERED }),
  registerBusiness: async ({ body, runtime }) => created(await registerBusiness(runtime, body), { message: REGISTERED }),
  oauthRegisterDeveloper: async ({ body, runtime }) =>
    created(await oauthRegisterDeveloper(runtime, body), { message: 'Account created' }),
  oauthRegisterBusiness: async ({ body, runtime }) =>
    created(await oauthRegisterBusiness(runtime, body), { message: 'Account created' }),
  verifyEmail: async ({ body, runtime }) => {
    const { alreadyVerified, ...verification } = await verifyEmail(runtime, body);
    return ok(verification, { message: alreadyVerified ? 'Email already verified' : 'Email verified' });
  },
  resendOtp: async ({ body, runtime }) => {
    await resendVerificationCode(runtime, body.email);
    return ok({ email: body.email }, { message: 'If the address awaits verification, a new code is on its way' });
  },
  forgotPassword: async ({ body, runtime }) => {
    await sendPasswordResetCode(runtime, body.email);
    return ok({ email: body.email }, { message: 'If an account uses this address, a reset code is on its way' });
  },
  resetPassword: async ({ body, runtime }) => {
    await resetPassword(runtime, body);
    return ok({ email: body.email }, { message: 'Password changed: log in with the new password' });
  },
});
