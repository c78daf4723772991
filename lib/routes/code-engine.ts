import { defineGroup } from '#lib/http/route.ts';
import {
  codeAnalysisResponse,
  codeEngineIdParams,
  codeFixResponse,
  codeHostSettingsBody,
  codeHostSettingsResponse,
  createPullRequestBody,
  pullRequestResponse,
} from '#lib/code-engine/schemas.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { network } from '#lib/ports/network/network-need.ts';

export const codeEngine = defineGroup({
  name: 'code-engine',
  description:
    'Suspect changes of an incident, a proposed fix (the revert of the suspect commit) and its pull request.',
  needs: [tableReadWrite, signingKeys, network],
  routes: {
    getAnalysis: {
      method: 'GET',
      path: '/api/v1/code-engine/analysis/:id',
      summary: 'Incident metadata, the changes suspected of causing it and any stored fix, by incident id or ticket id',
      description: 'Suspect changes are ranked as docs/code-engine.md describes; `fix` is null until one is generated.',
      auth: 'bearerOrApiKey',
      scope: 'incidents:read',
      access: 'read',
      request: { params: codeEngineIdParams },
      response: { status: 200, data: codeAnalysisResponse },
    },
    generateFix: {
      method: 'POST',
      path: '/api/v1/code-engine/generate-fix/:id',
      summary: 'Propose and store a fix for an incident: the revert of its most suspect commit, as a unified diff',
      description:
        '422 when nothing is suspect or the commit cannot be reverted file by file; 409 when code host A is not ' +
        'connected; code host errors as in docs/code-engine.md.',
      auth: 'bearerOrApiKey',
      scope: 'incidents:write',
      access: 'write',
      request: { params: codeEngineIdParams },
      response: { status: 200, data: codeFixResponse },
      moreErrors: [422, 502],
    },
    createPullRequest: {
      method: 'POST',
      path: '/api/v1/code-engine/create-pr/:id',
      summary: 'Open a pull request on code host A for the fix; integrations:write, as it writes to a repository',
      description:
        'A branch from `baseBranch`, one commit per file, then the pull request. 409 without a fix, when the fix ' +
        'has a pull request, when the branch exists or the fix no longer applies; 422 for an unknown repository ' +
        'or branch; 502 when code host A refuses the token or fails; 429 with `Retry-After` at its rate limit.',
      auth: 'bearerOrApiKey',
      scope: 'integrations:write',
      access: 'write',
      request: { params: codeEngineIdParams, body: createPullRequestBody },
      response: { status: 201, data: pullRequestResponse },
      moreErrors: [422, 502],
    },
    getSettings: {
      method: 'GET',
      path: '/api/v1/code-engine/settings',
      summary: "The workspace's code host A connection for the code engine, without its token",
      auth: 'bearer',
      access: 'admin',
      response: { status: 200, data: codeHostSettingsResponse },
    },
    putSettings: {
      method: 'PUT',
      path: '/api/v1/code-engine/settings',
      summary: "Set the workspace's code host A token and API root (enterprise hosts: https://<host>/api/v3)",
      description:
        'Until the code host A integration exists; the token is sealed at rest and never answered. ' +
        'See docs/code-engine.md.',
      auth: 'bearer',
      access: 'admin',
      request: { body: codeHostSettingsBody },
      response: { status: 200, data: codeHostSettingsResponse },
    },
  },
});
