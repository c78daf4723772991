import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface FakeCommitFile {
  filename: string;
  status: string;
  patch?: string;
}

/** An injected answer for the next request whose `METHOD path` matches. */
interface FakeFault {
  match: RegExp;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface FakePull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
}

export interface FakeCodeHost {
  /** The API root a workspace's settings name. */
  url: string;
  token: string;
  /** A repository with its branches, each a map of path to text. */
  addRepository(fullName: string, branches: Record<string, Record<string, string>>): void;
  addCommit(fullName: string, sha: string, message: string, files: FakeCommitFile[]): void;
  /** A branch's files as they are now, undefined without the branch. */
  files(fullName: string, branch: string): Record<string, string> | undefined;
  setFile(fullName: string, branch: string, path: string, text: string): void;
  pulls(fullName: string): FakePull[];
  /** Requests seen so far, as `METHOD path` with the path decoded. */
  requests: string[];
  failNext(fault: FakeFault): void;
  stop(): Promise<void>;
}

interface Repository {
  branches: Map<string, Map<string, string>>;
  commits: Map<string, { sha: string; message: string; files: FakeCommitFile[] }>;
  pulls: FakePull[];
}

const blobSha = (text: string): string =>
  createHash('sha1')
    .update(`blob ${Buffer.byteLength(text)}\0${text}`)
    .digest('hex');

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
};

const readBody = async (request: IncomingMessage): Promise<Record<string, any>> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
};

/**
 * Code host A's REST API as far as the code engine uses it, on a plain node:http server: commits with
 * their file patches, branch refs, the contents API (read, write, delete, with blob shas checked as the
 * real one does) and pull requests; a token it accepts, and faults injected per request.
 */
export const startFakeCodeHost = async (token = 'fake-token-0001'): Promise<FakeCodeHost> => {
  const repositories = new Map<string, Repository>();
  const faults: FakeFault[] = [];
  const requests: string[] = [];
  let heads = 0;

  const repositoryOf = (fullName: string): Repository | undefined => repositories.get(fullName.toLowerCase());

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = decodeURIComponent(url.pathname);
    const line = `${request.method} ${path}`;
    requests.push(line);
    const faultAt = faults.findIndex((fault) => fault.match.test(line));
    if (faultAt >= 0) {
      const [fault] = faults.splice(faultAt, 1);
      if (fault) return json(response, fault.status, fault.body ?? { message: 'injected' }, fault.headers);
    }
    if (request.headers.authorization !== `token ${token}`) return json(response, 401, { message: 'Bad credentials' });
    const match = /^\/repos\/([^/]+)\/([^/]+)\/(.*)$/.exec(path);
    const repository = match && repositoryOf(`${match[1]}/${match[2]}`);
    if (!match || !repository) return json(response, 404, { message: 'Not Found' });
    const rest = match[3] ?? '';
    const body = request.method === 'GET' ? {} : await readBody(request);

    const commit = /^commits\/(.+)$/.exec(rest);
    if (request.method === 'GET' && commit) {
      const found = repository.commits.get(commit[1] ?? '');
      if (!found) return json(response, 422, { message: 'No commit found for SHA' });
      return json(response, 200, {
        sha: found.sha,
        html_url: `https://codehost.example/${match[1]}/${match[2]}/commit/${found.sha}`,
        commit: { message: found.message },
        files: found.files,
      });
    }
    const ref = /^git\/ref\/heads\/(.+)$/.exec(rest);
    if (request.method === 'GET' && ref) {
      const branch = ref[1] ?? '';
      if (!repository.branches.has(branch)) return json(response, 404, { message: 'Not Found' });
      return json(response, 200, { ref: `refs/heads/${branch}`, object: { sha: `head-of-${branch}`, type: 'commit' } });
    }
    if (request.method === 'POST' && rest === 'git/refs') {
      const branch = String(body.ref).replace(/^refs\/heads\//, '');
      if (repository.branches.has(branch)) return json(response, 422, { message: 'Reference already exists' });
      const from = String(body.sha).replace(/^head-of-/, '');
      repository.branches.set(branch, new Map(repository.branches.get(from)));
      heads += 1;
      return json(response, 201, { ref: body.ref, object: { sha: `head-${heads}` } });
    }
    const contents = /^contents\/(.+)$/.exec(rest);
    if (contents) {
      const filePath = contents[1] ?? '';
      const branchName =
        request.method === 'GET'
          ? (url.searchParams.get('ref') ?? 'main').replace(/^head-of-/, '')
          : String(body.branch);
      const branch = repository.branches.get(branchName);
      if (!branch) return json(response, 404, { message: 'No commit found for the ref' });
      const current = branch.get(filePath);
      if (request.method === 'GET') {
        if (current === undefined) return json(response, 404, { message: 'Not Found' });
        return json(response, 200, {
          type: 'file',
          path: filePath,
          sha: blobSha(current),
          encoding: 'base64',
          content: Buffer.from(current).toString('base64'),
        });
      }
      if (current !== undefined && body.sha !== blobSha(current)) {
        return json(response, 409, { message: `${filePath} does not match ${body.sha}` });
      }
      if (request.method === 'DELETE') {
        if (current === undefined) return json(response, 404, { message: 'Not Found' });
        branch.delete(filePath);
        return json(response, 200, { content: null, commit: { message: body.message } });
      }
      if (request.method === 'PUT') {
        branch.set(filePath, Buffer.from(String(body.content), 'base64').toString('utf8'));
        return json(response, current === undefined ? 201 : 200, { content: { path: filePath } });
      }
    }
    if (request.method === 'POST' && rest === 'pulls') {
      if (!repository.branches.has(String(body.head))) return json(response, 422, { message: 'Validation Failed' });
      const pull = {
        number: repository.pulls.length + 1,
        title: String(body.title),
        body: String(body.body),
        head: String(body.head),
        base: String(body.base),
      };
      repository.pulls.push(pull);
      return json(response, 201, {
        number: pull.number,
        html_url: `https://codehost.example/${match[1]}/${match[2]}/pull/${pull.number}`,
      });
    }
    return json(response, 404, { message: 'Not Found' });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => json(response, 500, { message: error.message }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    addRepository(fullName, branches) {
      repositories.set(fullName.toLowerCase(), {
        branches: new Map(Object.entries(branches).map(([name, files]) => [name, new Map(Object.entries(files))])),
        commits: new Map(),
        pulls: [],
      });
    },
    addCommit(fullName, sha, message, files) {
      repositoryOf(fullName)?.commits.set(sha, { sha, message, files });
    },
    files(fullName, branch) {
      const files = repositoryOf(fullName)?.branches.get(branch);
      return files && Object.fromEntries(files);
    },
    setFile(fullName, branch, path, text) {
      repositoryOf(fullName)?.branches.get(branch)?.set(path, text);
    },
    pulls: (fullName) => repositoryOf(fullName)?.pulls ?? [],
    requests,
    failNext: (fault) => faults.push(fault),
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};
