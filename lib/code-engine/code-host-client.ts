import type { Octokit } from '@octokit/rest';
import {
  BadGatewayError,
  ConflictError,
  type HttpError,
  TooManyRequestsError,
  UnprocessableEntityError,
} from '#lib/contract/errors.ts';
import { log } from '#lib/log/logger.ts';

/** Per call; opening a pull request makes a few calls per file, well inside API Gateway's 29 s. */
const CODE_HOST_TIMEOUT_MS = 8000;

export interface CodeHostConnection {
  token: string;
  baseUrl: string;
  /** Calls the API root's host at the address the outbound guard approved (code-host-settings.ts). */
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}

interface CommitFile {
  filename: string;
  status: string;
  patch?: string;
}

export interface Commit {
  sha: string;
  message: string;
  url: string;
  files: CommitFile[];
}

interface HostFailure {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined> };
}

/** A 403 or 429 that is the host's rate limit, with the seconds until it resets. */
const rateLimitWait = (failure: HostFailure, nowSeconds: number): number | undefined => {
  const headers = failure.response?.headers ?? {};
  if (failure.status !== 403 && failure.status !== 429) return undefined;
  const retryAfter = Number(headers['retry-after']);
  if (Number.isFinite(retryAfter) && retryAfter > 0) return Math.ceil(retryAfter);
  if (String(headers['x-ratelimit-remaining']) !== '0') return failure.status === 429 ? 60 : undefined;
  const reset = Number(headers['x-ratelimit-reset']);
  return Number.isFinite(reset) ? Math.max(1, Math.ceil(reset - nowSeconds)) : 60;
};

/**
 * The host's answer as this service's error: the caller did nothing wrong when the host refuses the
 * workspace's token or fails (502), a missing repository, branch or commit is something the request named
 * (422), a branch or pull request that exists already is a conflict (409), and the host's rate limit is
 * passed on with its wait (429). `errors` names the host's status only: the API root is the workspace's
 * choice, and what answers there is logged, never passed on, so the service cannot be used to read it.
 */
const asHttpError = (failure: HostFailure, what: string, conflict: string | undefined): HttpError => {
  log.info('code host A refused a call', { what, status: failure.status, reason: failure.message });
  const detail = [`codeHostA: ${failure.status ?? 'no answer'}`];
  const wait = rateLimitWait(failure, Date.now() / 1000);
  if (wait !== undefined) {
    return new TooManyRequestsError(`Code host A's rate limit is used up; retry in ${wait} s`, detail, {
      'retry-after': String(wait),
    });
  }
  switch (failure.status) {
    case 401:
      return new BadGatewayError(
        'Code host A refused the workspace token; an ADMIN can replace it with PUT /api/v1/code-engine/settings',
        detail,
      );
    case 403:
      return new BadGatewayError(`Code host A denied the workspace token access while ${what}`, detail);
    case 404:
      return new UnprocessableEntityError(
        `Code host A found nothing while ${what}, or the token cannot see it`,
        detail,
      );
    case 409:
    case 422:
      return conflict
        ? new ConflictError(conflict, detail)
        : new UnprocessableEntityError(`Code host A refused ${what}`, detail);
    default:
      return new BadGatewayError(`Code host A did not answer while ${what}`, detail);
  }
};

const decode = (base64: string): string => Buffer.from(base64, 'base64').toString('utf8');
const encode = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/**
 * Code host A's REST API through Octokit, loaded by the first call so the function's cold start does not
 * carry it. `baseUrl` is the API root: `https://api.github.com`, or `https://<host>/api/v3` for an
 * enterprise server.
 */
export const codeHostClient = ({ token, baseUrl, fetch: pinned }: CodeHostConnection) => {
  let client: Promise<Octokit> | undefined;
  const octokit = (): Promise<Octokit> => {
    client ??= import('@octokit/rest').then(
      ({ Octokit }) =>
        new Octokit({
          auth: token,
          baseUrl: baseUrl.replace(/\/+$/, ''),
          userAgent: 'incident-service-code-engine',
          // Octokit's own lines as structured ones; a failed call is answered as an error envelope already.
          log: {
            debug: (message: string) => log.debug(message),
            info: (message: string) => log.debug(message),
            warn: (message: string) => log.warn(message),
            error: (message: string) => log.info(message),
          },
          request: {
            fetch: (url: string, init: RequestInit) =>
              pinned(url, { ...init, signal: AbortSignal.timeout(CODE_HOST_TIMEOUT_MS) }),
          },
        }),
    );
    return client;
  };

  const call = async <T>(what: string, run: (api: Octokit) => Promise<T>, conflict?: string): Promise<T> => {
    const api = await octokit();
    try {
      return await run(api);
    } catch (error) {
      throw asHttpError(error as HostFailure, what, conflict);
    }
  };

  return {
    getCommit: (owner: string, repo: string, sha: string): Promise<Commit> =>
      call(`reading commit ${sha} of ${owner}/${repo}`, async (api) => {
        const { data } = await api.rest.repos.getCommit({ owner, repo, ref: sha });
        return {
          sha: data.sha,
          message: data.commit.message,
          url: data.html_url,
          files: (data.files ?? []).map(({ filename, status, patch }) => ({ filename, status, patch })),
        };
      }),

    branchHead: (owner: string, repo: string, branch: string): Promise<string> =>
      call(`reading branch ${branch} of ${owner}/${repo}`, async (api) => {
        const { data } = await api.rest.git.getRef({ owner, repo, ref: `heads/${branch}` });
        return data.object.sha;
      }),

    /** A file's text and blob sha at `ref`; undefined when there is no such file. */
    readFile: async (
      owner: string,
      repo: string,
      path: string,
      ref: string,
    ): Promise<{ text: string; sha: string } | undefined> => {
      const api = await octokit();
      try {
        const { data } = await api.rest.repos.getContent({ owner, repo, path, ref });
        if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) {
          throw new UnprocessableEntityError(`${path} in ${owner}/${repo} is not a file`);
        }
        return { text: decode(data.content), sha: data.sha };
      } catch (error) {
        if ((error as HostFailure).status === 404) return undefined;
        if (error instanceof UnprocessableEntityError) throw error;
        throw asHttpError(error as HostFailure, `reading ${path} of ${owner}/${repo}`, undefined);
      }
    },

    createBranch: (owner: string, repo: string, branch: string, sha: string): Promise<void> =>
      call(
        `creating branch ${branch} in ${owner}/${repo}`,
        async (api) => {
          await api.rest.git.createRef({ owner, repo, ref: `refs/heads/${branch}`, sha });
        },
        `Branch ${branch} already exists in ${owner}/${repo}; delete it on code host A or generate the fix again`,
      ),

    writeFile: (
      owner: string,
      repo: string,
      file: { path: string; text: string; sha?: string; branch: string; message: string },
    ): Promise<void> =>
      call(`writing ${file.path} in ${owner}/${repo}`, async (api) => {
        await api.rest.repos.createOrUpdateFileContents({
          owner,
          repo,
          path: file.path,
          message: file.message,
          content: encode(file.text),
          branch: file.branch,
          ...(file.sha && { sha: file.sha }),
        });
      }),

    deleteFile: (
      owner: string,
      repo: string,
      file: { path: string; sha: string; branch: string; message: string },
    ): Promise<void> =>
      call(`deleting ${file.path} in ${owner}/${repo}`, async (api) => {
        await api.rest.repos.deleteFile({ owner, repo, ...file });
      }),

    openPullRequest: (
      owner: string,
      repo: string,
      pull: { title: string; body: string; head: string; base: string },
    ): Promise<{ number: number; url: string }> =>
      call(
        `opening a pull request in ${owner}/${repo}`,
        async (api) => {
          const { data } = await api.rest.pulls.create({ owner, repo, ...pull });
          return { number: data.number, url: data.html_url };
        },
        `Code host A refused the pull request from ${pull.head} into ${pull.base} (one may exist already)`,
      ),
  };
};

export type CodeHostClient = ReturnType<typeof codeHostClient>;
