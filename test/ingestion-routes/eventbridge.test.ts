import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyse, mapServices } from '../analysis/support.ts';
import { createIncident } from '../support/incidents.ts';
import { FIXTURES_DIR } from '../ingestion/support.ts';
import { startTestStack, type HttpReply, type TestClient } from '../support/local-stack.ts';
import { createTenant, expectAccepted, INGESTION, listChanges, listSignals, SIGNALS, type Tenant } from './support.ts';

const DIR = join(FIXTURES_DIR, 'eventbridge');
const fixture = (file: string): Record<string, any> => JSON.parse(readFileSync(join(DIR, file), 'utf8'));

describe('POST /ingestion/eventbridge (an EventBridge API destination)', () => {
  let client: TestClient;
  let tenant: Tenant;

  /** As an API destination posts: the event as JSON, the connection's API key as a header. */
  const post = (event: unknown, t: Tenant = tenant): Promise<HttpReply> =>
    client.request('POST', `${INGESTION}/eventbridge`, JSON.stringify(event), {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Amazon/EventBridge/ApiDestinations',
      ...t.keyHeaders,
    });

  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client);
  });

  afterAll(() => client.stack.stop());

  it('accepts every documented event shape, an unknown detail type as a LOW record', async () => {
    const files = readdirSync(DIR).filter((file) => file.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(7);
    const other = await createTenant(client, 'Shapes Co');
    for (const file of files) expectAccepted(await post(fixture(file), other));
    const unknown = expectAccepted(
      await post({ ...fixture('ec2-instance-state-change.json'), id: 'an-unknown-one' }, other),
    );
    const stored = await client.request('GET', `${SIGNALS}/${unknown.signalId}`, undefined, other.keyHeaders);
    expect(stored.body.data).toMatchObject({ type: 'event', severity: 'LOW', source: 'eventbridge' });
    const changes = await listChanges(client, other.keyHeaders);
    expect(changes.map((change) => change.id).sort()).toEqual([
      'aws_codedeploy-d-123456789',
      'aws_codepipeline-12345678-1234-5678-abcd-12345678abcd',
      'aws_ecs-ecs-svc/123',
    ]);
  });

  it('opens an alarm signal on ALARM and resolves it on OK', async () => {
    const alarm = fixture('cloudwatch-alarm-state-change.json');
    const fired = expectAccepted(await post(alarm));
    const ok = structuredClone(alarm);
    ok.id = 'd3b5c1f0-ok';
    ok.time = '2019-10-02T17:20:00Z';
    ok.detail.previousState = alarm.detail.state;
    ok.detail.state = { value: 'OK', reason: 'Threshold Crossed', timestamp: '2019-10-02T17:20:00.000+0000' };
    const resolved = expectAccepted(await post(ok));
    expect(resolved.signals[0]).toMatchObject({ signalId: fired.signalId, resolved: true });
  });

  it('counts an event delivered again (the same id) once', async () => {
    const finding = fixture('guardduty-finding.json');
    const first = expectAccepted(await post(finding));
    const again = expectAccepted(await post(finding));
    expect(again).toMatchObject({ signalId: first.signalId, deduplicated: true });
  });

  it('answers an event without its envelope fields with 400 and field messages, storing nothing', async () => {
    const before = (await listSignals(client, tenant.keyHeaders)).length;
    const { id: _id, time: _time, ...partial } = fixture('codedeploy-success.json');
    const reply = await post({ ...partial, time: 'yesterday' });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.errors).toEqual(
      expect.arrayContaining(['id: Invalid input: expected string, received undefined']),
    );
    expect(reply.body.errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/^time: Invalid ISO 8601 date-time/)]),
    );
    const badDetail = await post({
      ...fixture('codedeploy-success.json'),
      id: 'no-deployment',
      detail: { state: 'SUCCESS' },
    });
    expect(badDetail.status, badDetail.text).toBe(400);
    expect(badDetail.body.errors).toEqual(expect.arrayContaining([expect.stringMatching(/^detail\.deploymentId: /)]));
    expect(await listSignals(client, tenant.keyHeaders)).toHaveLength(before);
  });

  it('makes a CodeDeploy success a change, at the event time, that the analysis cites for an incident on that service', async () => {
    const deployTeam = await createTenant(client, 'Deploy Co');
    await mapServices(client, deployTeam.admin, ['checkout'], []);
    const deployedAt = new Date(Date.now() - 10 * 60_000);
    deployedAt.setMilliseconds(0);
    const deploy = { ...fixture('codedeploy-success.json'), time: deployedAt.toISOString() };
    const accepted = expectAccepted(await post(deploy, deployTeam));
    expect(accepted.signals[0]).toMatchObject({ changeId: 'aws_codedeploy-d-123456789' });

    const [change] = await listChanges(client, deployTeam.keyHeaders);
    expect(change).toMatchObject({
      id: 'aws_codedeploy-d-123456789',
      type: 'CHANGE',
      status: 'SUCCEEDED',
      createdAt: deployedAt.toISOString(),
    });
    expect(change?.summary).toMatch(/^Deploy checkout to production: CodeDeploy deployment SUCCESS/);

    const { id: incidentId } = await createIncident(client, deployTeam.admin.auth, {
      serviceArea: 'checkout',
      description: 'Checkout requests failing after the release',
    });
    const analysis = await analyse(client, deployTeam.admin, incidentId);
    expect(analysis.status).toBe('COMPLETE');
    expect(analysis.evidence.map((item: { id: string }) => item.id)).toContain('deploy:aws_codedeploy-d-123456789');
    expect(analysis.citations.rootCause).toEqual(['deploy:aws_codedeploy-d-123456789']);
  });
});
