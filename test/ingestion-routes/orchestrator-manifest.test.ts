import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEY_PLACEHOLDER,
  EVENT_EXPORTER_IMAGE,
  publicBaseUrl,
} from '#lib/ingestion/senders/orchestrator/manifest.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { INGESTION, createTenant, type Tenant } from './support.ts';

const MANIFEST = `${INGESTION}/orchestrator/manifest`;

/** The manifest's documents, split the way kubectl splits a stream, each with its kind and name. */
const documentsOf = (yaml: string) =>
  yaml.split(/^---$/m).map((text) => ({
    text,
    kind: /^kind: (\S+)$/m.exec(text)?.[1],
    name: /^metadata:\n(?: {2}.*\n)*? {2}name: (\S+)$/m.exec(text)?.[1],
  }));

describe('GET /ingestion/orchestrator/manifest', () => {
  let client: TestClient;
  let tenant: Tenant;

  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client);
  });

  afterAll(() => client.stack.stop());

  it('answers raw YAML that kubectl can apply, posting to this service', async () => {
    const reply = await client.request('GET', MANIFEST, undefined, tenant.keyHeaders);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(reply.body).toBeUndefined();
    const yaml = reply.text;
    expect(yaml).toContain(`endpoint: "${client.stack.url}/api/v1/ingestion/orchestrator"`);
    expect(yaml).not.toMatch(/\t/);
    const documents = documentsOf(yaml);
    expect(documents.map(({ kind }) => kind)).toEqual([
      'Namespace',
      'ServiceAccount',
      'ClusterRole',
      'ClusterRoleBinding',
      'Secret',
      'ConfigMap',
      'Deployment',
    ]);
    for (const document of documents) {
      expect(document.text).toMatch(/^apiVersion: \S+$/m);
      expect(document.name, document.text).toBeDefined();
    }
  });

  it('deploys the pinned event exporter, reading events only, with the key from its Secret', async () => {
    const yaml = (await client.request('GET', MANIFEST, undefined, tenant.keyHeaders)).text;
    expect(yaml).toContain(`image: ${EVENT_EXPORTER_IMAGE}`);
    expect(EVENT_EXPORTER_IMAGE).toMatch(/:v\d+\.\d+/);
    const role = documentsOf(yaml).find(({ kind }) => kind === 'ClusterRole')?.text ?? '';
    expect(role).toContain('resources: ["events"]');
    expect(role).toContain('verbs: ["get", "watch", "list"]');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the manifest carries a literal shell-style placeholder
    expect(yaml).toContain('X-API-Key: "${INCIDENT_SERVICE_API_KEY}"');
    expect(yaml).toMatch(/secretKeyRef:\n\s+name: \S+\n\s+key: api-key/);
    // Fetched with the key in a header, the manifest carries no key: the operator fills the placeholder.
    expect(yaml).toContain(`api-key: "${API_KEY_PLACEHOLDER}"`);
    expect(yaml).not.toContain(tenant.key);
  });

  it('puts the key it was fetched with into the Secret when it came as ?apiKey=', async () => {
    const reply = await client.request('GET', `${MANIFEST}?apiKey=${encodeURIComponent(tenant.key)}`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.text).toContain(`api-key: "${tenant.key}"`);
    expect(reply.text).not.toContain(API_KEY_PLACEHOLDER);
  });

  it('takes only an ingestion key', async () => {
    expect((await client.request('GET', MANIFEST)).status).toBe(401);
    expect((await client.request('GET', MANIFEST, undefined, tenant.admin.auth)).status).toBe(401);
  });
});

describe('the public base URL of the service', () => {
  const event = (path: string, requestPath: string): APIGatewayProxyEvent =>
    ({ path, requestContext: { path: requestPath, domainName: 'unused' } }) as unknown as APIGatewayProxyEvent;
  const own = '/api/v1/ingestion/orchestrator/manifest';

  it("keeps the stage on API Gateway's own host", () => {
    expect(
      publicBaseUrl(
        event(own, `/prod${own}`),
        { host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-proto': 'https' },
        own,
      ),
    ).toBe('https://abc123.execute-api.eu-west-1.amazonaws.com/prod');
  });

  it('keeps the base path mapping of a custom domain, and nothing else', () => {
    expect(
      publicBaseUrl(
        event(`/incidents${own}`, `/incidents${own}`),
        { host: 'api.example.com', 'x-forwarded-proto': 'https' },
        own,
      ),
    ).toBe('https://api.example.com/incidents');
    expect(publicBaseUrl(event(own, own), { host: 'api.example.com', 'x-forwarded-proto': 'https' }, own)).toBe(
      'https://api.example.com',
    );
  });

  it('uses the path as requested on a local server', () => {
    expect(publicBaseUrl(event(own, `/local${own}`), { host: '127.0.0.1:3000' }, own)).toBe('http://127.0.0.1:3000');
  });
});
