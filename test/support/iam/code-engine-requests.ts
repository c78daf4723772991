import { postDeployment, REPO, startSeededCodeHost } from '../../code-engine/support.ts';
import type { FakeCodeHost } from '../fake-code-host.ts';
import {
  V1,
  byAdmin,
  creating,
  expectOk,
  withIds,
  type RequestContext,
  type RouteRequests,
} from './request-helpers.ts';

/** Code host A for the fix and its pull request: started by the first, stopped by the second (they run in order). */
let host: FakeCodeHost | undefined;

const incidentOnTheDeployedService = (context: RequestContext) =>
  creating(context, 'codeIncident', '/incident-ticket', {
    summary: 'Hello World answers 500',
    priority: 'HIGH',
    serviceArea: 'hello-world',
    environment: 'production',
  });

/** The code engine's routes, each through the function's grants: reads with the key, writes as well. */
export const CODE_ENGINE_REQUESTS: Record<string, RouteRequests> = {
  'code-engine.getAnalysis': async (context) => {
    await incidentOnTheDeployedService(context);
    return withIds('GET', ({ codeIncident }) => `/code-engine/analysis/${codeIncident}`, undefined, 'key')(context);
  },
  'code-engine.generateFix': async (context) => {
    host = await startSeededCodeHost();
    const settings = { token: host.token, baseUrl: host.url };
    expectOk(
      await context.client.request('PUT', `${V1}/code-engine/settings`, settings, context.admin.auth),
      'code engine settings',
    );
    await postDeployment(context.client, context.keyHeaders);
    await incidentOnTheDeployedService(context);
    return withIds(
      'POST',
      ({ codeIncident }) => `/code-engine/generate-fix/${codeIncident}`,
      undefined,
      'key',
    )(context);
  },
  'code-engine.createPullRequest': async (context) => {
    try {
      return await withIds(
        'POST',
        ({ codeIncident }) => `/code-engine/create-pr/${codeIncident}`,
        { repo: REPO },
        'key',
      )(context);
    } finally {
      await host?.stop();
      host = undefined;
    }
  },
  'code-engine.getSettings': byAdmin('GET', '/code-engine/settings'),
  'code-engine.putSettings': byAdmin('PUT', '/code-engine/settings', {
    token: 'token-of-an-enterprise-host',
    baseUrl: 'https://codehost.example/api/v3',
  }),
};
