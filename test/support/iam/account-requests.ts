import { signConfirmation } from '#lib/workspaces/outside-address-token.ts';
import { HIGH_INCIDENT_POLICY } from '../../sla/support.ts';
import { publishSsoProof } from '../fake-network.ts';
import { joinAs, latestOtp, uniqueEmail } from '../accounts.ts';
import {
  PASSWORD,
  V1,
  byAdmin,
  creating,
  expectOk,
  invitation,
  oauthPerson,
  registerDeveloper,
  unverifiedDeveloper,
  withIds,
  type RequestContext,
  type RouteRequests,
} from './request-helpers.ts';

/** An outside address an SLA policy names, which the service mails a confirmation link (docs/security.md). */
export const OUTSIDE_CONTACT = 'partner@least-privilege.example';

/** The confirmation link of the outside contact, named first so the link has an address to confirm. */
const confirmationPath = async (context: RequestContext): Promise<string> => {
  const { client, admin } = context;
  const named = { ...HIGH_INCIDENT_POLICY, escalationContact: OUTSIDE_CONTACT };
  expectOk(await client.request('POST', `${V1}/sla-policies`, named, admin.auth), 'name an outside contact');
  const token = await signConfirmation(client.stack.ports.signingKeys, {
    workspaceId: admin.user.businessId as string,
    address: OUTSIDE_CONTACT,
    expiresAt: new Date(Date.now() + 60 * 60_000).toISOString(),
  });
  return `${V1}/business/outside-addresses/confirm/${token}`;
};

/** `<group>.<route key>` of the public routes, sign-in and sign-up, API keys and the workspace (business, IMS, SSO). */
export const ACCOUNT_REQUESTS: Record<string, RouteRequests> = {
  'health.getHealth': byAdmin('GET', '/health'),

  'docs.getOpenApiDocument': byAdmin('GET', '/openapi.json'),
  'docs.getDocsPage': byAdmin('GET', '/docs'),
  'docs.getDocsScript': byAdmin('GET', '/docs/swagger-ui-bundle.js'),
  'docs.getDocsStylesheet': byAdmin('GET', '/docs/swagger-ui.css'),
  'docs.getDocsFile': byAdmin('GET', '/docs/decisions.md'),
  'docs.getSpecFile': byAdmin('GET', '/docs/spec/DECISIONS.md'),

  'auth.login': ({ client, admin: { email, password } }) =>
    client.request('POST', `${V1}/auth/login`, { email, password }),
  'auth.refreshToken': ({ client, admin: { refreshToken } }) =>
    client.request('POST', `${V1}/auth/refresh-token`, { refreshToken }),
  // A login of its own, so the admin's tokens the other requests use keep working.
  'auth.logout': async ({ client, admin: { email, password } }) => {
    const signedIn = await client.request('POST', `${V1}/auth/login`, { email, password });
    return client.request('POST', `${V1}/auth/logout`, { refreshToken: signedIn.body.data.refreshToken });
  },
  'auth.oauthLogin': async (context) => {
    const { idToken: _used, ...person } = await oauthPerson(context);
    const idToken = await context.provider.idToken({ sub: person.provider_uuid, email: person.email });
    const register = { firstName: 'Grace', lastName: 'Hopper', experienceLevel: 'SENIOR', ...person, idToken };
    expectOk(await context.client.request('POST', `${V1}/auth/oauth/dev/register`, register), 'oauth register');
    const again = await context.provider.idToken({ sub: person.provider_uuid, email: person.email });
    return context.client.request('POST', `${V1}/auth/oauth/login`, { ...person, idToken: again });
  },
  'auth.ssoDiscovery': ({ client, admin: { email } }) =>
    client.request('GET', `${V1}/auth/sso/discovery?email=${encodeURIComponent(email)}`),
  'auth.registerDeveloper': ({ client }) => registerDeveloper(client, uniqueEmail('dev')),
  'auth.registerBusiness': ({ client }) =>
    client.request('POST', `${V1}/auth/business/register`, {
      businessName: 'Globex',
      firstName: 'Hank',
      lastName: 'Scorpio',
      email: uniqueEmail('business'),
      password: PASSWORD,
    }),
  'auth.oauthRegisterDeveloper': async (context) =>
    context.client.request('POST', `${V1}/auth/oauth/dev/register`, {
      firstName: 'Grace',
      lastName: 'Hopper',
      experienceLevel: 'SENIOR',
      ...(await oauthPerson(context)),
    }),
  'auth.oauthRegisterBusiness': async (context) =>
    context.client.request('POST', `${V1}/auth/oauth/business/register`, {
      businessName: 'Initech',
      firstName: 'Bill',
      lastName: 'Lumbergh',
      ...(await oauthPerson(context)),
    }),
  'auth.verifyEmail': async (context) => {
    const email = await unverifiedDeveloper(context);
    const otp = await latestOtp(context.client, email);
    return context.client.request('POST', `${V1}/auth/verify_email`, { email, otp, password: PASSWORD });
  },
  'auth.resendOtp': async (context) =>
    context.client.request('POST', `${V1}/auth/resend_otp`, { email: await unverifiedDeveloper(context) }),
  'auth.forgotPassword': async (context) => {
    context.ids.resetEmail = await unverifiedDeveloper(context);
    return context.client.request('POST', `${V1}/auth/forgot-password`, { email: context.ids.resetEmail });
  },
  'auth.resetPassword': async ({ client, ids: { resetEmail: email = '' } }) =>
    client.request('POST', `${V1}/auth/reset-password`, {
      email,
      otp: await latestOtp(client, email),
      newPassword: 'a brand new password',
    }),

  'api-keys.createKey': (context) =>
    creating(context, 'apiKey', '/apikey/createapikey', {
      name: 'least privilege',
      environment: 'PRODUCTION',
      scopes: ['incidents:read'],
    }),
  'api-keys.listKeys': byAdmin('GET', '/apikey/apikeys'),
  'api-keys.rotateKey': withIds('POST', ({ apiKey }) => `/apikey/${apiKey}/rotate`),
  'api-keys.revokeKey': withIds('POST', ({ apiKey }) => `/apikey/${apiKey}/revoke`),
  'api-keys.updateKey': async (context) => {
    await creating(context, 'pausedKey', '/apikey/createapikey', {
      name: 'paused',
      environment: 'PRODUCTION',
      scopes: ['incidents:read'],
    });
    return withIds('PUT', ({ pausedKey }) => `/apikey/${pausedKey}`, { isActive: false })(context);
  },
  'api-keys.deleteKey': withIds('DELETE', ({ apiKey }) => `/apikey/${apiKey}`),

  'business.decodeInvite': async (context) =>
    context.client.request('POST', `${V1}/business/decode-invite`, { token: await invitation(context) }),
  'business.acceptInvite': async (context) =>
    context.client.request('POST', `${V1}/business/accept-invite`, {
      token: await invitation(context),
      password: PASSWORD,
      firstName: 'Grace',
      lastName: 'Hopper',
    }),
  'business.setupBusiness': byAdmin('PUT', '/business/setup', { businessName: 'Acme Operations' }),
  'business.listMembers': byAdmin('GET', '/business/get_members'),
  'business.changeMemberRole': async (context) => {
    context.ids.member = (await joinAs(context.client, context.admin, 'ENGINEER')).user.id;
    return withIds('PATCH', ({ member }) => `/business/members/${member}`, { role: 'VIEWER' })(context);
  },
  'business.removeMember': withIds('DELETE', ({ member }) => `/business/members/${member}`),
  'business.sendInvite': byAdmin('POST', '/business/send-invite', {
    email: uniqueEmail('invited'),
    role: 'VIEWER',
    accessPermissions: [],
  }),
  'business.setupIms': (context) =>
    byAdmin('POST', '/ims/setup', { alertEmail: context.admin.email, timezone: 'Europe/Paris' })(context),
  'business.getImsConfig': byAdmin('GET', '/ims/config'),
  'business.updateImsConfig': byAdmin('PUT', '/ims/config', { slaEnabled: true, autoEscalate: true }),
  'business.getSsoSettings': byAdmin('GET', '/business/sso'),
  'business.getWorkspace': byAdmin('GET', '/business/workspace'),
  'business.listOutsideAddresses': byAdmin('GET', '/business/outside-addresses'),
  'business.showAddressConfirmation': async (context) => context.client.request('GET', await confirmationPath(context)),
  'business.confirmAddress': async (context) => context.client.request('POST', await confirmationPath(context)),
  'business.updateSsoSettings': (context) => {
    publishSsoProof(context.client.stack.ports.network, context.admin.user.businessId as string, 'example.com');
    return byAdmin('PUT', '/business/sso', {
      enabled: true,
      protocol: 'OIDC',
      loginUrl: 'https://sso.example.com/login',
      domains: ['example.com'],
    })(context);
  },
};
