import * as z from 'zod/mini';
import '#lib/contract/zod-locale.ts';

/** The kinds of provider a workspace connects through OAuth, by the spec's neutral names. */
const OAUTH_INTEGRATIONS = ['chat', 'codehost-a', 'codehost-b', 'videomeet'] as const;
export type OAuthIntegration = (typeof OAUTH_INTEGRATIONS)[number];

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const isLoopbackUrl = (url: string): boolean => LOOPBACK.has(new URL(url).hostname);

/** Plain http only for a provider on this machine (a local or test fake): secrets and tokens travel here. */
const providerUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .check(z.refine((url) => url.startsWith('https:') || isLoopbackUrl(url), 'must be https (http only for localhost)'));

const trimmedUrl = z.pipe(
  providerUrl,
  z.transform((url) => url.replace(/\/+$/, '')),
);

/**
 * One OAuth 2.0 application registered at a provider for this deployment. The URLs are settings so that
 * enterprise and self-hosted installations (code host B on a company's own host) work.
 */
const providerSettings = z.strictObject({
  clientId: z.string().check(z.trim(), z.minLength(1, 'is required')),
  clientSecret: z.string().check(z.minLength(1, 'is required')),
  authorizeUrl: providerUrl,
  tokenUrl: providerUrl,
  /** The provider's REST API: repositories, projects and hooks of code hosts, meetings of the video tool. */
  apiBaseUrl: trimmedUrl,
  /** Scopes asked for at authorization, space-separated as OAuth 2.0 sends them. */
  scopes: z.optional(z.string()),
});

const providersSchema = z.partialRecord(z.enum(OAUTH_INTEGRATIONS), providerSettings);

export type IntegrationProvider = z.output<typeof providerSettings>;
export type IntegrationProviders = Readonly<Partial<Record<OAuthIntegration, IntegrationProvider>>>;

/**
 * `INTEGRATION_PROVIDERS` locally, the integration-providers secret in AWS, as JSON:
 * `{"chat": {"clientId", "clientSecret", "authorizeUrl", "tokenUrl", "apiBaseUrl", "scopes"?}, "codehost-a": ...}`.
 * Empty means no provider, so every connect answers 400 until one is configured.
 */
export const parseIntegrationProviders = (text: string | undefined): IntegrationProviders => {
  if (!text?.trim()) return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('integration providers must be a JSON object');
  }
  const parsed = providersSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.map(String).join('.') || 'providers'}: ${issue.message}`,
    );
    throw new Error(`integration providers: ${problems.join('; ')}`);
  }
  return parsed.data;
};

/** What the integrations need to reach providers and to be reached by them. */
export interface IntegrationSettings {
  /** The providers, read from their secret on first use and kept for a few minutes. */
  providers(): Promise<IntegrationProviders>;
  /** This API's base URL (the stage URL), where code hosts are told to deliver webhooks. */
  readonly apiUrl: string;
}
