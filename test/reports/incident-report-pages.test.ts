import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyse } from '../analysis/support.ts';
import { apiKeyHeaders, type SignedIn, signUpBusiness } from '../support/accounts.ts';
import { INCIDENTS } from '../support/incidents.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { bodyLines, hasPoppler, inkBetween, type PdfPages, renderPages } from '../support/pdf-pages.ts';

const V1 = '/api/v1';
const TIMEZONE = 'Europe/Berlin';

/** What the report titles; none may be the last thing on a page, away from what it introduces. */
const HEADINGS = [
  'What happened',
  'Details',
  'Resolution and root cause',
  'Alerts',
  'Technical description',
  'Timeline',
  'Playbook runs',
  'Comments',
  'Notifications sent',
  'Latest analysis',
  'HOW IT WAS RESOLVED',
  'ROOT CAUSE',
  'HYPOTHESIS',
  'IMPACT',
  'CONTRIBUTING FACTORS',
  'REMEDIATION OPTIONS, IN ORDER',
];

const LOCAL_TIME = /\b\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\b/;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * The PDF of an incident worked end to end through the API (alerts correlated, a playbook run with notes,
 * an analysis, notifications, comments, a resolution), drawn page by page with poppler as a reader would
 * see it.
 */
describe.skipIf(!hasPoppler)('the incident report, page by page', () => {
  let client: TestClient;
  let admin: SignedIn;
  let incidentId: string;
  const call = async (method: string, path: string, body?: unknown) => {
    const reply = await client.request(method, `${V1}${path}`, body, admin.auth);
    expect(reply.status, `${method} ${path}: ${reply.text}`).toBeLessThan(300);
    return reply.body?.data;
  };
  const pdfOf = async (): Promise<PdfPages> => {
    const response = await fetch(`${client.stack.url}${INCIDENTS}/generate-pdf`, {
      method: 'POST',
      headers: { ...admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ incidentId }),
    });
    expect(response.status).toBe(200);
    return renderPages(Buffer.from(await response.arrayBuffer()));
  };

  beforeAll(async () => {
    client = await startTestStack(':memory:', undefined, { workers: true });
    admin = await signUpBusiness(client, { businessName: 'Paged Co' });
    await call('POST', '/ims/setup', { alertEmail: 'oncall@example.com', timezone: TIMEZONE });
    const key = await apiKeyHeaders(client, admin, ['ingestion:write']);
    for (const title of ['Checkout 5xx above 2%', 'Checkout p99 above 2 s']) {
      const posted = await client.request(
        'POST',
        `${V1}/ingestion/webhook`,
        {
          source: 'uptime-checker',
          title,
          severity: 'critical',
          status: 'firing',
          message: `${title} for 5 minutes`,
          metadata: { service: 'checkout', region: 'eu-west-1', team: 'payments' },
        },
        key,
      );
      expect(posted.status, posted.text).toBe(202);
    }
    await client.stack.workers?.idle();
    const [incident] = await call('GET', '/incident-ticket?limit=1');
    incidentId = incident.id;

    await call('PUT', `/incident-ticket/${incidentId}`, { status: 'ACKNOWLEDGED', assignedToEmail: admin.email });
    const playbook = await call('POST', '/playbooks', {
      title: 'Checkout degraded',
      description: 'First steps when checkout fails',
      steps: [
        { title: 'Check the checkout dashboards' },
        { title: 'Fail over to the standby region', optional: true },
        { title: 'Tell customer support' },
      ],
    });
    await call('POST', `/playbooks/${playbook.id}/publish`);
    const { executionId } = await call('POST', `/playbooks/${playbook.id}/execute`, { incidentId });
    const execution = `/playbooks/executions/${executionId}`;
    await call('POST', `${execution}/steps/0/complete`, { note: 'Errors from one pod only' });
    await call('POST', `${execution}/steps/1/skip`, { reason: 'One pod, not the region' });
    await call('POST', `${execution}/actions`, { description: 'Drained the failing pod' });
    await call('POST', `${execution}/steps/2/complete`, { note: 'Support told: retry is safe' });
    await analyse(client, admin, incidentId);
    await call('POST', '/incident-ticket/comment', { ticketId: incidentId, content: 'Pod drained, errors gone.' });
    await call('POST', `/incident-ticket/resolve/${incidentId}`, {
      resolution: 'Drained and replaced the failing pod.',
      rootCause: 'A pod lost its database connection pool.',
    });
    await client.stack.deliveriesIdle();
  }, 60_000);
  afterAll(() => client.stack.stop());

  it('prints each event once, with the playbook steps and notes, the analysis as of its time and the notifications', async () => {
    const { texts } = await pdfOf();
    const text = texts.join('\n');
    expect(text.match(/started: execution/g)).toHaveLength(1);
    expect(text.match(/Incident created/g)).toHaveLength(1);
    for (const phrase of [
      'Playbook runs',
      'Checkout degraded (version 1)',
      'Errors from one pod only',
      'Skipped: One pod, not the region',
      'Also done: Drained the failing pod',
      'Support told: retry is safe',
      'Latest analysis',
      'Notifications sent',
      'oncall@example.com',
      'Incident opened',
      'Incident resolved',
    ]) {
      expect(text).toContain(phrase);
    }
    expect(text).toMatch(new RegExp(`as of ${LOCAL_TIME.source}, before the incident was resolved`));
  });

  it('prints every time in the workspace zone in one format, none as a raw ISO timestamp', async () => {
    const text = (await pdfOf()).texts.join('\n');
    expect(text).not.toMatch(ISO_TIME);
    expect(text).toContain(`Time (${TIMEZONE})`);
    expect(text).toMatch(new RegExp(`triggered ${LOCAL_TIME.source}`));
  });

  it('keeps every heading on the page of what it introduces, however long the text before it', async () => {
    // Each added line of description moves every later heading down the page a little, until one would
    // land at the foot of a page.
    for (let lines = 0; lines <= 36; lines += 2) {
      const description = Array.from({ length: lines }, (_, line) => `Line ${line + 1} of what customers saw.`);
      await call('PUT', `/incident-ticket/${incidentId}`, {
        description: description.join('\n\n') || 'Checkout failed.',
      });
      const { texts, images } = await pdfOf();
      expect(images.length, `${lines} lines`).toBe(texts.length);
      // Nothing lost on the way: pdfmake drops what a block kept whole would carry past its first page.
      for (const last of ['Pod drained, errors gone.', 'Confirm recovery']) {
        expect(texts.join('\n'), `${lines} lines`).toContain(last);
      }
      texts.forEach((page, index) => {
        const last = bodyLines(page).at(-1) ?? '';
        expect(HEADINGS, `${lines} lines, the foot of page ${index + 1}`).not.toContain(last);
        expect(last, `${lines} lines, the foot of page ${index + 1}`).not.toMatch(/^Time \(/);
      });
      for (const [index, image] of images.entries()) {
        expect(image.height / image.width, 'A4').toBeCloseTo(297 / 210, 1);
        // Between the running header and footer: no page is left blank by a heading moved on.
        expect(inkBetween(image, 0.07, 0.93), `${lines} lines, page ${index + 1}`).toBeGreaterThan(0.002);
      }
    }
  }, 120_000);
});
