import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { createTenant, expectAccepted, postRaw } from '../ingestion-routes/support.ts';
import { loadFixture, withFields } from '../ingestion/support.ts';
import { createIncident } from '../support/incidents.ts';
import { analyse, deployHelloWorld, mapServices, postSignal } from './support.ts';

const DEPLOY_ID = 'deploy:codehost_a-145988746';

describe("a repository's changes are its service's, by the service map's repository rule", () => {
  let client: TestClient;

  beforeAll(async () => {
    client = await startTestStack();
  });
  afterAll(() => client.stack.stop());

  it('blames a deploy of the repository a service names, whatever the repository is called', async () => {
    const { admin, keyHeaders } = await createTenant(client, 'Named Repository Co');
    const created = await client.request(
      'POST',
      '/api/v1/service-map',
      { name: 'checkout', repository: 'Codertocat/Hello-World' },
      admin.auth,
    );
    expect(created.status, created.text).toBe(201);
    await deployHelloWorld(client, keyHeaders, 3);
    await postSignal(client, admin, { name: 'checkout 5xx above 5%', serviceId: 'checkout' });
    const incidentId = (await createIncident(client, admin.auth, { serviceArea: 'checkout' })).id as string;

    const analysis = await analyse(client, admin, incidentId);
    expect(analysis.citations.rootCause).toEqual([DEPLOY_ID]);
    expect(analysis.rootCause).toMatch(/^The change deployed to checkout at \d{2}:\d{2} on .* by .*: /);
    const deploy = analysis.evidence.find((item: { id: string }) => item.id === DEPLOY_ID);
    expect(deploy.service).toBe('checkout');
  });

  it("starts a blast radius from a code host's failed deploy, at the service named like its repository", async () => {
    const { admin, keyHeaders } = await createTenant(client, 'Repository Trigger Co');
    const ids = await mapServices(client, admin, ['hello-world', 'checkout'], [['checkout', 'hello-world']]);
    const fixture = loadFixture('codehost-a', 'deployment_status.created.0.json');
    const failed = withFields(fixture.body, { 'deployment_status.state': 'failure' });
    const { signalId } = expectAccepted(
      await postRaw(
        client,
        'codehost-a',
        JSON.stringify(failed),
        { 'x-github-event': 'deployment_status', 'x-github-delivery': randomUUID() },
        { headers: keyHeaders },
      ),
    );

    const reply = await client.request('POST', '/api/v1/blast-radius/calculate', { triggerId: signalId }, admin.auth);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data).toMatchObject({
      triggerId: signalId,
      triggerType: 'SIGNAL',
      serviceId: ids['hello-world'],
    });
    expect(reply.body.data.affectedServices.map((service: { name: string }) => service.name)).toEqual([
      'hello-world',
      'checkout',
    ]);
  });
});
