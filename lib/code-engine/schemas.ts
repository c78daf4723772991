import * as z from 'zod/mini';

/** Any string: a value that is not an incident id is simply not found (404). */
export const codeEngineIdParams = z.object({ id: z.string().check(z.minLength(1)) });

const REPO = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;
/** The common subset of git's ref-name rules: no spaces, `..`, `~^:?*[\` or leading `-`/`/`. */
const BRANCH = /^(?![-/])(?!.*\.\.)(?!.*\/\/)(?!.*\/$)(?!.*\.lock$)[A-Za-z0-9._/-]{1,200}$/;

export const createPullRequestBody = z.object({
  repo: z.string().check(z.trim(), z.regex(REPO, 'must be a repository as owner/repo')),
  baseBranch: z._default(
    z.string().check(z.trim(), z.regex(BRANCH, 'must be a branch name such as main or release/1.2')),
    'main',
  ),
});
export type CreatePullRequestInput = z.output<typeof createPullRequestBody>;

export const DEFAULT_CODE_HOST_API = 'https://api.github.com';

export const codeHostSettingsBody = z.object({
  token: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'must not be empty'),
      z.maxLength(500, 'must be at most 500 characters'),
      z.regex(/^\S*$/, 'must not contain spaces'),
    ),
  baseUrl: z._default(
    z.url({ protocol: /^https?$/, error: 'must be an http or https URL, the API root of code host A' }),
    DEFAULT_CODE_HOST_API,
  ),
});
export type CodeHostSettingsInput = z.output<typeof codeHostSettingsBody>;

const suspectChange = z.object({
  id: z.string(),
  kind: z.enum(['DEPLOYMENT', 'PIPELINE_RUN']),
  provider: z.string(),
  repository: z.string(),
  commitSha: z.nullable(z.string()),
  environment: z.nullable(z.string()),
  branch: z.nullable(z.string()),
  status: z.string(),
  summary: z.string(),
  at: z.string(),
  minutesBeforeIncident: z.number(),
  score: z.number().check(z.gte(0), z.lte(1)),
  reasons: z.array(z.string()),
});

const pullRequest = z.object({
  number: z.number(),
  url: z.string(),
  repo: z.string(),
  branch: z.string(),
  baseBranch: z.string(),
  openedAt: z.string(),
  openedBy: z.string(),
});

export const codeFixResponse = z.object({
  fixId: z.string(),
  incidentId: z.string(),
  kind: z.literal('REVERT_COMMIT'),
  title: z.string(),
  rationale: z.string(),
  repository: z.string(),
  commitSha: z.string(),
  diff: z.string(),
  files: z.array(z.object({ path: z.string(), change: z.enum(['modify', 'create', 'delete']), patch: z.string() })),
  evidence: z.array(suspectChange),
  generatedAt: z.string(),
  generatedBy: z.string(),
  pullRequest: z.nullable(pullRequest),
});

const nullableText = z.nullable(z.string());

export const codeAnalysisResponse = z.object({
  incident: z.object({
    id: z.string(),
    ticketId: z.string(),
    summary: z.string(),
    priority: z.string(),
    status: z.string(),
    source: nullableText,
    serviceArea: nullableText,
    environment: nullableText,
    createdAt: z.string(),
  }),
  window: z.object({ from: z.string(), to: z.string() }),
  suspectChanges: z.array(suspectChange),
  fix: z.nullable(codeFixResponse),
});

export const pullRequestResponse = z.object({ fixId: z.string(), pullRequest });

export const codeHostSettingsResponse = z.object({
  configured: z.boolean(),
  baseUrl: z.string(),
  tokenHint: nullableText,
  updatedAt: nullableText,
  updatedBy: nullableText,
});
