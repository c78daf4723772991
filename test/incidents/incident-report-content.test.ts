import { describe, expect, it } from 'vitest';
import { useCorrelatingStack } from '../correlation/support.ts';
import { createRule, getSignal } from '../correlation/support.ts';
import { loadFixture } from '../ingestion/support.ts';
import { apiKeyHeaders, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import type { TestClient } from '../support/local-stack.ts';
import { squash, textOf } from '../support/pdf-text.ts';
import { INCIDENTS, createIncident } from '../support/incidents.ts';

const pdfText = async (client: TestClient, auth: Record<string, string>, incidentId: string): Promise<string> => {
  const response = await fetch(`${client.stack.url}${INCIDENTS}/generate-pdf`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ incidentId }),
  });
  expect(response.status).toBe(200);
  return squash(textOf(Buffer.from(await response.arrayBuffer())));
};

/** The squashed text between two section headings. */
const between = (text: string, from: string, to: string): string => text.slice(text.indexOf(from), text.indexOf(to));

/** `2026-11-25 07:02:05` as squashed text prints it: the wall clock of `offsetMinutes` east of UTC. */
const wallClock = (iso: string, offsetMinutes: number): string =>
  new Date(Date.parse(iso) + offsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', '');

describe('incident PDF as a report', () => {
  const stack = useCorrelatingStack();

  let workspaces = 0;
  const workspace = (): Promise<SignedIn> =>
    signUpBusiness(stack.client, { businessName: `Reporting Co ${(workspaces += 1)}` });

  it('prints each change once, to the second, in the workspace time zone it names', async () => {
    const admin = await workspace();
    const ims = await stack.client.request(
      'POST',
      '/api/v1/ims/setup',
      { alertEmail: 'alerts@example.com', timezone: 'Asia/Kolkata' },
      admin.auth,
    );
    expect(ims.status, ims.text).toBe(201);
    const incident = await createIncident(stack.client, admin.auth, { summary: 'Search cluster out of disk' });
    const put = (body: unknown) => stack.client.request('PUT', `${INCIDENTS}/${incident.id}`, body, admin.auth);
    const comment = (content: string) =>
      stack.client.request('POST', `${INCIDENTS}/comment`, { ticketId: incident.id, content }, admin.auth);
    await put({ status: 'ACKNOWLEDGED' });
    await put({ assignedToEmail: admin.email });
    await put({ priority: 'CRITICAL' });
    await comment('Freed 200 GB on es-7');
    await put({ status: 'INVESTIGATION' });
    await put({ region: 'eu-west-1' });
    await comment('Watermark raised to 90%');
    await stack.client.request('POST', `${INCIDENTS}/resolve/${incident.id}`, undefined, admin.auth);

    const text = await pdfText(stack.client, admin.auth, incident.id);
    expect(between(text, 'Timesin', 'Whathappened')).toContain('Asia/Kolkata');
    const timeline = between(text, 'Timeline', 'Comments');
    expect(timeline).toContain(squash('Time (Asia/Kolkata)'));
    expect(timeline.match(/\d{2}:\d{2}:\d{2}admin/g)).toHaveLength(9);
    expect(timeline.split(squash('Status changed from OPEN to ACKNOWLEDGED'))).toHaveLength(2);
    expect(timeline).not.toContain(squash(`by ${admin.email}`));
    expect(timeline).toContain(wallClock(incident.createdAt, 330));
  });

  it('shows the alerts behind the incident with their labels, and no section that has no data', async () => {
    const admin = await workspace();
    await createRule(stack.client, admin.auth, {
      name: 'Any alert of a service',
      order: 1,
      match: { sources: ['metrics-alerts'] },
      groupBy: ['serviceId'],
      minSignals: 1,
      windowMinutes: 10,
      action: { priority: 'HIGH' },
    });
    const key = await apiKeyHeaders(stack.client, admin, ['ingestion:write']);
    const { body } = loadFixture('metrics-alerts', 'captured-firing-2alerts.json');
    const posted = await stack.client.request('POST', '/api/v1/ingestion/metrics-alerts', body, key);
    expect(posted.status, posted.text).toBe(202);
    await stack.worker.idle();
    const signal = await getSignal(stack.client, admin.auth, posted.body.data.signalId);
    expect(signal.incidentId).toBeTruthy();

    const text = await pdfText(stack.client, admin.auth, signal.incidentId);
    const alerts = between(text, 'Alerts', 'Timeline');
    for (const phrase of [
      'DiskFull',
      'Disk almost full on db-1',
      'instancedb-1',
      'instancedb-2',
      'jobnode',
      'severitywarning',
    ]) {
      expect(alerts).toContain(squash(phrase));
    }
    expect(text).toContain(squash('The incident affected the node service.'));
    for (const empty of ['Comments', 'Latest analysis', 'Resolution and root cause', 'None recorded']) {
      expect(text).not.toContain(squash(empty));
    }
  });

  it("links the runbook a generic webhook's metadata names", async () => {
    const admin = await workspace();
    const key = await apiKeyHeaders(stack.client, admin, ['ingestion:write']);
    const posted = await stack.client.request(
      'POST',
      '/api/v1/ingestion/webhook',
      {
        source: 'uptime-checker',
        title: 'Storefront down',
        severity: 'critical',
        status: 'firing',
        message: 'HTTP 503 from https://shop.example',
        metadata: { runbook_url: 'https://runbooks.example/storefront', region: 'eu-west-1', team: 'web' },
      },
      key,
    );
    expect(posted.status, posted.text).toBe(202);
    await stack.worker.idle();
    const signal = await getSignal(stack.client, admin.auth, posted.body.data.signalId);
    const text = await pdfText(stack.client, admin.auth, signal.incidentId);
    const alerts = between(text, 'Alerts', 'Timeline');
    expect(alerts).toContain(squash('Runbook: https://runbooks.example/storefront'));
    expect(alerts).toContain(squash('HTTP 503 from https://shop.example'));
    expect(alerts).toContain(squash('regioneu-west-1'));
    expect(alerts).toContain(squash('teamweb'));
    expect(alerts).not.toContain('fingerprint');
  });

  it('reads UTC for a workspace with no time zone', async () => {
    const admin = await workspace();
    const incident = await createIncident(stack.client, admin.auth);
    const text = await pdfText(stack.client, admin.auth, incident.id);
    expect(between(text, 'Timesin', 'Whathappened')).toContain('UTC');
    expect(text).toContain(wallClock(incident.createdAt, 0));
  });
});
