import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoClock } from '#infra/local/demo/demo-clock.ts';
import { demoAccess } from '#infra/local/demo/demo-mode.ts';
import { type DemoWorkspace, seedDemo } from '#infra/local/demo/seed.ts';
import { SHOWCASE_SUMMARY } from '#infra/local/demo/showcase.ts';
import { login } from '../support/accounts.ts';
import { squash, textOf } from '../support/pdf-text.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const V1 = '/api/v1';

/** `npm run demo`'s seeding against the whole stack, workers included; everything checked through HTTP. */
describe('the demo workspace', () => {
  let client: TestClient;
  let demo: DemoWorkspace;
  let key: Record<string, string>;
  const get = async (path: string) => {
    const reply = await client.request('GET', `${V1}${path}`, undefined, key);
    expect(reply.status, `${path}: ${reply.text}`).toBe(200);
    return reply.body;
  };

  beforeAll(async () => {
    const clock = demoClock();
    client = await startTestStack(':memory:', undefined, { workers: true, clock });
    const settled = async () => {
      await client.stack.workers?.idle();
      await client.stack.deliveriesIdle();
    };
    demo = await seedDemo({ baseUrl: client.stack.url, settled, clock });
    key = { 'x-api-key': demo.apiKey };
  }, 120_000);
  afterAll(() => client.stack.stop());

  it('prints the console, credentials that sign in as the ADMIN and a key that reads the workspace', async () => {
    const printed = demoAccess(demo);
    const consoleUrl = /console +(http\S+)/.exec(printed)?.[1] ?? '';
    expect(consoleUrl).toBe(`${client.stack.url}/`);
    const page = await fetch(consoleUrl, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<div id="app">');
    const admin = await login(client, demo.email, demo.password);
    expect(admin.user.roles).toContain('ADMIN');
    const members = await client.request('GET', `${V1}/business/get_members`, undefined, admin.auth);
    expect(members.body.data.map((member: { role: string }) => member.role).sort()).toEqual([
      'ADMIN',
      'ENGINEER',
      'ENGINEER',
      'ENGINEER',
      'VIEWER',
    ]);
    const ims = await client.request('GET', `${V1}/ims/config`, undefined, admin.auth);
    expect(ims.body.data).toMatchObject({ timezone: 'Europe/Berlin', slaEnabled: true });
    expect((await get('/incident-ticket')).meta.total).toBeGreaterThan(6);
  });

  it('has the service map, policies, silent hours, on-call and correlation rules', async () => {
    const topology = (await get('/service-map/topology')).data;
    expect(topology.nodes).toHaveLength(9);
    expect(topology.edges).toHaveLength(13);
    expect((await get('/sla-policies')).data.policies).toHaveLength(4);
    expect((await get('/silent-hours')).data.rules).toHaveLength(2);
    expect((await get('/get-all-assign')).data.assignments).toHaveLength(14);
    const rules = (await get('/correlation-rules')).data.map((rule: { name: string }) => rule.name);
    expect(rules).toEqual(expect.arrayContaining(['Payments are critical', 'Disk and database pressure']));
  });

  it('has a week of signals from several senders, and pipeline runs from the code hosts', async () => {
    const sources = ['synthetic-checks', 'metrics-alerts', 'monitoring', 'paging', 'webhook', 'orchestrator'];
    for (const source of sources) expect((await get(`/signals?source=${source}`)).total, source).toBeGreaterThan(0);
    const runs = (await get('/pipelines?limit=100')).data.runs as { provider: string; startedAt: string }[];
    expect(new Set(runs.map((run) => run.provider))).toEqual(new Set(['codehost_a', 'codehost_b', 'codehost_c']));
    const oldest = Math.min(...runs.map((run) => Date.parse(run.startedAt)));
    expect(Date.now() - oldest).toBeGreaterThan(6 * 24 * 3_600_000);
  });

  it('has an incident in every status, with comments, history and SLA deadlines', async () => {
    for (const status of ['OPEN', 'ACKNOWLEDGED', 'INVESTIGATION', 'MITIGATED', 'RESOLVED', 'CLOSED']) {
      expect((await get(`/incident-ticket?status=${status}`)).meta.total, status).toBeGreaterThan(0);
    }
    const [mitigated] = (await get('/incident-ticket?status=MITIGATED')).data;
    expect((await get(`/incident-ticket/comment/${mitigated.id}`)).data).toHaveLength(2);
    expect((await get(`/incident-ticket/${mitigated.id}`)).data).toMatchObject({
      slaPolicyId: expect.any(String),
      slaResolveDueAt: expect.any(String),
    });
    expect((await get(`/incident-ticket/message/${mitigated.id}`)).data.length).toBeGreaterThan(2);
  });

  it('has playbooks, one run partly, a complete analysis and blast-radius reports', async () => {
    expect((await get('/playbooks')).meta.total).toBe(3);
    expect((await get('/playbooks?status=PUBLISHED')).meta.total).toBe(2);
    const executions = (await get('/playbooks/executions/list')).data;
    expect(executions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'IN_PROGRESS', currentStepIndex: 2 }),
        expect.objectContaining({ status: 'COMPLETED', incidentId: demo.showcaseIncidentId }),
      ]),
    );
    expect((await get('/assistant/analyses?status=COMPLETE')).total).toBe(1);
    expect((await get('/blast-radius')).total).toBe(3);
  });

  const DAY = 86_400_000;
  const incidents = async (): Promise<Record<string, any>[]> => (await get('/incident-ticket?limit=100')).data;

  it('opened its incidents at their own times over the week, not at seeding time', async () => {
    const created = (await incidents()).map((incident) => Date.parse(incident.createdAt));
    const days = new Set(created.map((at) => Math.floor((Date.now() - at) / DAY)));
    expect(days.size).toBeGreaterThanOrEqual(5);
    expect(Math.min(...created)).toBeLessThan(Date.now() - 5 * DAY);
  });

  it('shows times to detect and resolve of minutes, as a team would see them', async () => {
    const metrics = (await get('/dashboard/metrics')).data;
    expect(metrics.resolvedIncidents).toBeGreaterThan(3);
    expect(metrics.mttd).toBeGreaterThan(0);
    expect(metrics.mttd).toBeLessThan(15 * 60);
    expect(metrics.mttr).toBeGreaterThan(10 * 60);
    expect(metrics.mttr).toBeLessThan(3 * 3600);
    for (const incident of await incidents()) {
      if (!incident.acknowledgedAt) continue;
      const toAcknowledge = Date.parse(incident.acknowledgedAt) - Date.parse(incident.createdAt);
      expect(toAcknowledge, incident.summary).toBeLessThan(30 * 60_000);
    }
  });

  it("uses no name of the test fixtures its senders' payloads come from", async () => {
    const shown = [
      ...(await incidents()).flatMap((incident) => [incident.summary, incident.serviceArea, incident.description]),
      ...(await get('/signals?limit=100')).data.flatMap((signal: Record<string, string>) => [
        signal.name,
        signal.serviceId,
      ]),
      ...(await get('/pipelines?limit=100')).data.runs.map((run: Record<string, string>) => run.repository),
      ...(await get('/service-map/topology')).data.nodes.map((service: Record<string, string>) =>
        JSON.stringify(service),
      ),
    ].join('\n');
    for (const fixtureName of FIXTURE_NAMES) expect(shown).not.toContain(fixtureName);
  });

  it('explains the showcase incident by the deploy before it, from its own evidence', async () => {
    const [showcase] = (await incidents()).filter((incident) => incident.summary === SHOWCASE_SUMMARY);
    expect(showcase?.id).toBe(demo.showcaseIncidentId);
    const analysis = (await get(`/assistant/analysis/${demo.showcaseIncidentId}`)).data;
    const [cause] = analysis.citations.rootCause;
    const deploy = analysis.evidence.find((item: { id: string }) => item.id === cause);
    expect(deploy).toMatchObject({ kind: 'DEPLOY', service: 'payments-api' });
    const leadMinutes = (Date.parse(showcase?.createdAt) - Date.parse(deploy.at)) / 60_000;
    expect(leadMinutes).toBeGreaterThan(0);
    expect(leadMinutes).toBeLessThan(30);
    expect(analysis.confidence).toBeGreaterThanOrEqual(0.6);
    expect(analysis.rootCause).toContain('payments-api');
  });

  it("prints the showcase's report with each playbook step once and the analysis as of before it was resolved", async () => {
    const response = await fetch(`${client.stack.url}${V1}/incident-ticket/generate-pdf`, {
      method: 'POST',
      headers: { ...key, 'content-type': 'application/json' },
      body: JSON.stringify({ incidentId: demo.showcaseIncidentId }),
    });
    expect(response.status).toBe(200);
    const pdf = Buffer.from(await response.arrayBuffer());
    // `REPORT_IMAGES=1 npx vitest run test/integration/demo.test.ts` redraws docs/images/incident-report-*.png.
    if (process.env.REPORT_IMAGES) {
      const file = join(mkdtempSync(join(tmpdir(), 'demo-report-')), 'report.pdf');
      writeFileSync(file, pdf);
      execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '2', file, 'docs/images/incident-report']);
    }
    const text = squash(textOf(pdf));
    for (const step of ['Check the payments-api dashboards', 'Check the payment provider status page']) {
      expect(text.split(squash(step)), step).toHaveLength(2);
    }
    expect(text.split(squash('started: execution'))).toHaveLength(2);
    expect(text).toContain(squash('before the incident was resolved'));
    expect(text).toContain(squash('Notifications sent'));
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  });
});

/** Titles, hosts, services and repositories of test/fixtures/ingestion that the demo renames. */
const FIXTURE_NAMES = [
  'Test Incident',
  'pig208',
  'My new incident',
  'XDB Cluster',
  'Codertocat',
  'Hello-World',
  'octo-org',
  'gitlab-org',
  'gitlab-test',
  'jsmithy2',
  'diaspora',
  'test-deployment-webhooks',
  'circleci/',
  'kindValue',
  'README',
];
