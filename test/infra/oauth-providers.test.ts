import { describe, expect, it } from 'vitest';
import { parseOAuthProviders } from '#lib/ports/identity-provider/oauth-providers.ts';
import { buildApp, inspect } from './template.ts';

const PROVIDERS = {
  google: { kind: 'oidc', issuer: 'https://accounts.google.com', clientId: '123.apps.googleusercontent.com' },
  'codehost-a': { kind: 'oauth2-user-api', apiBaseUrl: 'https://api.github.com/' },
};

/** OAUTH_PROVIDERS of every function that has it, by function path. */
const oauthEnv = (context: Record<string, unknown>): Map<string, unknown> => {
  const app = buildApp(context);
  const view = inspect(app);
  const withIt = new Map<string, unknown>();
  for (const [name, fn] of app.stack.groupFunctions) {
    const variables = view.functionResource(fn).Properties.Environment?.Variables ?? {};
    if ('OAUTH_PROVIDERS' in variables) withIt.set(name, variables.OAUTH_PROVIDERS);
  }
  return withIt;
};

describe('OAuth providers context', () => {
  it('configures none by default, and tells only the auth function', () => {
    expect(oauthEnv({})).toEqual(new Map([['auth', '{}']]));
  });

  it('passes the oauthProviders context, as -c JSON or as a cdk.json object, to the auth function as OAUTH_PROVIDERS', () => {
    for (const context of [JSON.stringify(PROVIDERS), PROVIDERS]) {
      const env = oauthEnv({ oauthProviders: context });
      expect([...env.keys()]).toEqual(['auth']);
      expect(parseOAuthProviders(env.get('auth') as string)).toEqual({
        google: PROVIDERS.google,
        'codehost-a': { kind: 'oauth2-user-api', apiBaseUrl: 'https://api.github.com' },
      });
    }
  });

  it('fails the synth on a provider the functions could not use', () => {
    const bad = [
      'not json',
      { google: { kind: 'saml', issuer: 'https://accounts.google.com' } },
      { google: { kind: 'oidc', issuer: 'http://accounts.example.com', clientId: 'x' } },
      { google: { kind: 'oidc', issuer: 'https://accounts.google.com' } },
      { Google: PROVIDERS.google },
    ];
    for (const oauthProviders of bad) {
      expect(() => buildApp({ oauthProviders }), JSON.stringify(oauthProviders)).toThrow(/^context oauthProviders: /);
    }
  });
});
