import { defineGroup } from '#lib/http/route.ts';

export const auth = defineGroup({
  name: 'auth',
  description: 'Sign-in, registration, e-mail verification and password recovery.',
  routes: {
    login: {
      method: 'POST',
      path: '/api/v1/auth/login',
      summary: 'Log in with e-mail and password',
      auth: 'public',
      limiter: 'login',
    },
    refreshToken: {
      method: 'POST',
      path: '/api/v1/auth/refresh-token',
      summary: 'Exchange a refresh token for a new access token',
      auth: 'public',
    },
    oauthLogin: {
      method: 'POST',
      path: '/api/v1/auth/oauth/login',
      summary: 'Log in through an OAuth provider',
      auth: 'public',
    },
    ssoDiscovery: {
      method: 'GET',
      path: '/api/v1/auth/sso/discovery',
      summary: 'SSO settings for an e-mail address',
      auth: 'public',
    },
    registerDeveloper: {
      method: 'POST',
      path: '/api/v1/auth/dev/register',
      summary: 'Register a developer account',
      auth: 'public',
    },
    registerBusiness: {
      method: 'POST',
      path: '/api/v1/auth/business/register',
      summary: 'Register a business account and its workspace',
      auth: 'public',
    },
    oauthRegisterDeveloper: {
      method: 'POST',
      path: '/api/v1/auth/oauth/dev/register',
      summary: 'Register a developer account via OAuth',
      auth: 'public',
    },
    oauthRegisterBusiness: {
      method: 'POST',
      path: '/api/v1/auth/oauth/business/register',
      summary: 'Register a business account via OAuth',
      auth: 'public',
    },
    verifyEmail: {
      method: 'POST',
      path: '/api/v1/auth/verify_email',
      summary: 'Verify an e-mail address with a one-time code',
      auth: 'public',
    },
    resendOtp: {
      method: 'POST',
      path: '/api/v1/auth/resend_otp',
      summary: 'Re-send the e-mail verification code',
      auth: 'public',
      limiter: 'email',
    },
    forgotPassword: {
      method: 'POST',
      path: '/api/v1/auth/forgot-password',
      summary: 'E-mail a password reset code',
      auth: 'public',
      limiter: 'email',
    },
    resetPassword: {
      method: 'POST',
      path: '/api/v1/auth/reset-password',
      summary: 'Set a new password with the e-mailed reset code',
      auth: 'public',
    },
  },
});
