import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture, withFields } from '../ingestion/support.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { createTenant, expectAccepted, listSignals, postRaw, type Tenant } from './support.ts';

/**
 * The spec requires `action` and `repository` of a code host A webhook. Real deliveries name their event
 * in `X-GitHub-Event`, and account-level events (an organization's, an installation's) have no repository:
 * those stay accepted. A payload that names no event and carries no repository is about nothing.
 */
describe('POST /ingestion/codehost-a: action and repository, unless the event names itself', () => {
  let client: TestClient;
  let tenant: Tenant;

  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client);
  });
  afterAll(() => client.stack.stop());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    postRaw(client, 'codehost-a', JSON.stringify(body), headers, { headers: tenant.keyHeaders });

  it('refuses a payload with an action but no repository and no event header, naming repository', async () => {
    const reply = await post({ action: 'created', sender: { login: 'octocat' } });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.errors).toEqual([
      'repository: Invalid input: expected object, received undefined (or an X-GitHub-Event header)',
    ]);
  });

  it('names both fields when neither is there, and stores nothing of either refusal', async () => {
    const push = loadFixture('codehost-a', 'push.0.json').body;
    const reply = await post(withFields(push, { repository: undefined }));
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.errors).toEqual([
      'action: Invalid input: expected string, received undefined (or an X-GitHub-Event header)',
      'repository: Invalid input: expected object, received undefined (or an X-GitHub-Event header)',
    ]);
    expect(await listSignals(client, tenant.keyHeaders)).toEqual([]);
  });

  it('accepts an account-level event without a repository that names itself in the header', async () => {
    const organization = { action: 'member_added', organization: { login: 'acme' }, sender: { login: 'octocat' } };
    expectAccepted(await post(organization, { 'x-github-event': 'organization' }));
  });

  it('accepts a payload without the header that carries its action and repository', async () => {
    expectAccepted(await post(loadFixture('codehost-a', 'pull_request.opened.0.json').body));
  });
});
