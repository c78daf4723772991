import {
  emailOnlyBody,
  loginBody,
  oauthLoginBody,
  oauthRegisterBusinessBody,
  oauthRegisterDeveloperBody,
  refreshTokenBody,
  registerBusinessBody,
  registerDeveloperBody,
  resetPasswordBody,
  ssoDiscoveryQuery,
  verifyEmailBody,
} from '#lib/accounts/schemas.ts';
import { defineGroup } from '#lib/http/route.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { mail } from '#lib/ports/mail/mail-need.ts';
import { identityProviders } from '#lib/ports/identity-provider/identity-provider-need.ts';

export const auth = defineGroup({
  name: 'auth',
  description: 'Sign-in, registration, e-mail verification and password recovery.',
  needs: [tableReadWrite, signingKeys, mail, identityProviders],
  routes: {
    login: {
      method: 'POST',
      path: '/api/v1/auth/login',
      summary: 'Log in with e-mail and password',
      auth: 'public',
      limiter: 'login',
      request: { body: loginBody },
    },
    refreshToken: {
      method: 'POST',
      path: '/api/v1/auth/refresh-token',
      summary: 'Exchange a refresh token for a new access token',
      auth: 'public',
      request: { body: refreshTokenBody },
    },
    oauthLogin: {
      method: 'POST',
      path: '/api/v1/auth/oauth/login',
      summary: 'Log in through an OAuth provider',
      auth: 'public',
      limiter: 'login',
      request: { body: oauthLoginBody },
    },
    ssoDiscovery: {
      method: 'GET',
      path: '/api/v1/auth/sso/discovery',
      summary: 'SSO settings for an e-mail address',
      auth: 'public',
      request: { query: ssoDiscoveryQuery },
    },
    registerDeveloper: {
      method: 'POST',
      path: '/api/v1/auth/dev/register',
      summary: 'Register a developer account',
      auth: 'public',
      request: { body: registerDeveloperBody },
    },
    registerBusiness: {
      method: 'POST',
      path: '/api/v1/auth/business/register',
      summary: 'Register a business account and its workspace',
      auth: 'public',
      request: { body: registerBusinessBody },
    },
    oauthRegisterDeveloper: {
      method: 'POST',
      path: '/api/v1/auth/oauth/dev/register',
      summary: 'Register a developer account via OAuth',
      auth: 'public',
      request: { body: oauthRegisterDeveloperBody },
    },
    oauthRegisterBusiness: {
      method: 'POST',
      path: '/api/v1/auth/oauth/business/register',
      summary: 'Register a business account via OAuth',
      auth: 'public',
      request: { body: oauthRegisterBusinessBody },
    },
    verifyEmail: {
      method: 'POST',
      path: '/api/v1/auth/verify_email',
      summary: 'Verify an e-mail address with a one-time code',
      auth: 'public',
      request: { body: verifyEmailBody },
    },
    resendOtp: {
      method: 'POST',
      path: '/api/v1/auth/resend_otp',
      summary: 'Re-send the e-mail verification code',
      auth: 'public',
      limiter: 'email',
      request: { body: emailOnlyBody },
    },
    forgotPassword: {
      method: 'POST',
      path: '/api/v1/auth/forgot-password',
      summary: 'E-mail a password reset code',
      auth: 'public',
      limiter: 'email',
      request: { body: emailOnlyBody },
    },
    resetPassword: {
      method: 'POST',
      path: '/api/v1/auth/reset-password',
      summary: 'Set a new password with the e-mailed reset code',
      auth: 'public',
      request: { body: resetPasswordBody },
    },
  },
});
