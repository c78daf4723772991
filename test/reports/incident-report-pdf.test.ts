import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { renderIncidentReportPdf } from '#lib/reports/pdf/render.ts';
import type { IncidentReport } from '#lib/reports/incident-report.ts';
import type { HistoryEvent } from '#lib/tickets/history.ts';

const PDFTOTEXT = '/usr/bin/pdftotext';

/**
 * The text of a PDF: poppler's `pdftotext` where installed, else a reader for what pdfkit writes
 * (Flate streams, Identity-H fonts whose ToUnicode maps give back the characters).
 */
const textOf = (pdf: Buffer): string => (existsSync(PDFTOTEXT) ? popplerText(pdf) : pdfkitText(pdf));

const popplerText = (pdf: Buffer): string => {
  const directory = mkdtempSync(join(tmpdir(), 'incident-report-'));
  try {
    const file = join(directory, 'report.pdf');
    writeFileSync(file, pdf);
    return execFileSync(PDFTOTEXT, ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
};

const pdfkitText = (pdf: Buffer): string => {
  const raw = pdf.toString('latin1');
  const objects = new Map<string, { dictionary: string; stream: string }>();
  for (const match of raw.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const [, id = '', body = ''] = match;
    const streamAt = body.indexOf('stream\n');
    const dictionary = streamAt < 0 ? body : body.slice(0, streamAt);
    let stream = streamAt < 0 ? '' : body.slice(streamAt + 7, body.lastIndexOf('\nendstream'));
    if (dictionary.includes('/FlateDecode')) stream = inflateSync(Buffer.from(stream, 'latin1')).toString('latin1');
    objects.set(id, { dictionary, stream });
  }
  const fonts = new Map<string, Map<number, string>>();
  for (const [, name = '', id = ''] of raw.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
    const toUnicode = /\/ToUnicode (\d+) 0 R/.exec(objects.get(id)?.dictionary ?? '')?.[1];
    const cmap = objects.get(toUnicode ?? '')?.stream ?? '';
    const codes = new Map<number, string>();
    for (const [, start = '0', list = ''] of cmap.matchAll(/<([0-9a-f]+)> <[0-9a-f]+> \[([^\]]*)\]/gi)) {
      [...list.matchAll(/<([0-9a-f ]+)>/gi)].forEach(([, units = ''], offset) => {
        const text = String.fromCharCode(...units.split(' ').map((unit) => Number.parseInt(unit, 16)));
        codes.set(Number.parseInt(start, 16) + offset, text);
      });
    }
    fonts.set(name, codes);
  }
  let text = '';
  for (const { stream } of objects.values()) {
    let font = new Map<number, string>();
    for (const [operation = '', name, strings = ''] of stream.matchAll(/\/(F\d+) [\d.]+ Tf|\[([^\]]*)\] TJ|ET/g)) {
      if (name !== undefined) font = fonts.get(name) ?? font;
      else if (operation === 'ET') text += '\n';
      else
        for (const [, hex = ''] of strings.matchAll(/<([0-9a-f]*)>/gi)) {
          for (let at = 0; at < hex.length; at += 4) text += font.get(Number.parseInt(hex.slice(at, at + 4), 16)) ?? '';
        }
    }
  }
  return text;
};

/** Whitespace-free text, so a phrase still matches where the PDF wrapped or split it into runs. */
const squash = (text: string): string => text.replace(/[\s\u200B]+/g, '');

const event = (
  event: HistoryEvent['event'],
  timestamp: string,
  actor: string,
  extra: Partial<HistoryEvent> = {},
): HistoryEvent => ({
  id: `h-${timestamp}`,
  ticketId: 'INC-2024-0142',
  ticketType: 'INCIDENT',
  event,
  actor,
  timestamp,
  ...extra,
});

const FULL: IncidentReport = {
  workspaceName: 'Acme Payments',
  generatedAt: '2024-05-02T09:30:00.000Z',
  note: 'Prepared for the **weekly reliability review**. Figures are provisional until finance confirms the refunds.',
  incident: {
    id: 'INC-2024-0142',
    summary: 'Card payments failing for EU customers at checkout',
    priority: 'P1',
    status: 'RESOLVED',
    source: 'Datadog monitor: checkout-error-rate',
    serviceArea: 'Payments',
    environment: 'production',
    region: 'eu-west-1',
    assignedToEmail: 'dana.ops@acme.example',
    description:
      'Between 14:02 and 15:47 UTC some customers in Europe could not complete card payments. Orders were not charged twice; affected customers can retry now.',
    techDescription: [
      'The payment gateway client started receiving `503` responses from the acquirer after the **connection pool** was reduced in release `2024.05.01-3`.',
      '',
      '## What we saw',
      '- p99 latency on `POST /charges` rose from 350 ms to 9 s',
      '- error rate peaked at 38% in eu-west-1',
      '  - us-east-1 was unaffected',
      '- retries amplified load on the acquirer',
      '',
      '```',
      'maxConnections: 200 -> 20',
      'idleTimeout:    60s',
      '```',
      '',
      'See the [deployment dashboard](https://grafana.example/d/deploys) and ![graph](https://images.example/graph.png).',
    ].join('\n'),
    impactSummary: 'About 12,400 failed checkout attempts; an estimated €61k in delayed revenue.',
    blastRadius: 'EU storefronts (DE, FR, NL, ES); mobile and web. No impact on subscriptions or payouts.',
    createdAt: '2024-05-01T14:05:12.000Z',
    updatedAt: '2024-05-01T16:20:00.000Z',
    acknowledgedAt: '2024-05-01T14:09:40.000Z',
    resolvedAt: '2024-05-01T15:52:03.000Z',
  },
  comments: [
    {
      authorEmail: 'dana.ops@acme.example',
      createdAt: '2024-05-01T14:12:00.000Z',
      content: 'Rolling back **2024.05.01-3** now.\n\nWatching `checkout-error-rate`; will update in 10 minutes.',
    },
    {
      authorEmail: 'li.wei@acme.example',
      createdAt: '2024-05-01T14:31:00.000Z',
      content: [
        '### Findings so far',
        '1. Rollback finished at 14:28',
        '2. Error rate back under 2%',
        '3. Acquirer confirms no outage on their side',
        '',
        '> The pool change was meant for staging only.',
      ].join('\n'),
    },
    {
      authorEmail: 'sam.manager@acme.example',
      createdAt: '2024-05-01T15:50:00.000Z',
      content: 'Thanks all. Please draft the customer note — keep it short and mention the retry.',
    },
  ],
  messages: [
    {
      text: 'Incident opened from alert "checkout-error-rate above 5%"',
      actor: 'system',
      createdAt: '2024-05-01T14:05:12.000Z',
    },
    {
      text: 'Paged on-call: dana.ops@acme.example (escalation level 1)',
      actor: 'system',
      createdAt: '2024-05-01T14:05:30.000Z',
    },
    {
      text: 'Status page updated: **Investigating** card payment errors',
      actor: 'statuspage-bot',
      createdAt: '2024-05-01T14:15:00.000Z',
    },
    { text: 'Status page updated: Resolved', actor: 'statuspage-bot', createdAt: '2024-05-01T15:55:00.000Z' },
  ],
  history: [
    event('CREATED', '2024-05-01T14:05:12.000Z', 'system', { to: 'OPEN' }),
    event('SIGNAL_LINKED', '2024-05-01T14:05:13.000Z', 'system', { to: 'SIG-88412' }),
    event('ASSIGNED', '2024-05-01T14:09:30.000Z', 'dana.ops@acme.example', { from: null, to: 'dana.ops@acme.example' }),
    event('STATUS_CHANGE', '2024-05-01T14:09:40.000Z', 'dana.ops@acme.example', { from: 'OPEN', to: 'ACKNOWLEDGED' }),
    event('COMMENT_ADDED', '2024-05-01T14:12:00.000Z', 'dana.ops@acme.example', {
      message: 'Rolling back **2024.05.01-3** now.\n\nWatching ...',
    }),
    event('STATUS_CHANGE', '2024-05-01T14:13:00.000Z', 'dana.ops@acme.example', {
      from: 'ACKNOWLEDGED',
      to: 'INVESTIGATION',
    }),
    event('PRIORITY_CHANGE', '2024-05-01T14:20:00.000Z', 'api-key:pagerduty-sync', { from: 'P2', to: 'P1' }),
    event('COMMENT_ADDED', '2024-05-01T14:31:00.000Z', 'li.wei@acme.example', {
      message: '### Findings so far\n1. Rollback finished at 14:28',
    }),
    event('FIELD_CHANGE', '2024-05-01T14:40:00.000Z', 'li.wei@acme.example', {
      field: 'region',
      from: 'unknown',
      to: 'eu-west-1',
    }),
    event('STATUS_CHANGE', '2024-05-01T15:10:00.000Z', 'li.wei@acme.example', {
      from: 'INVESTIGATION',
      to: 'MITIGATED',
    }),
    event('COMMENT_ADDED', '2024-05-01T15:50:00.000Z', 'sam.manager@acme.example', {
      message: 'Thanks all. Please draft the customer note.',
    }),
    event('RESOLVED', '2024-05-01T15:52:03.000Z', 'dana.ops@acme.example', {
      from: 'MITIGATED',
      to: 'RESOLVED',
      message: 'Rollback verified for 60 minutes',
    }),
  ],
  analysis: {
    hypothesis:
      'The connection pool reduction in release 2024.05.01-3 starved the payment gateway client under EU peak load.',
    rootCause: 'A staging-only configuration value (`maxConnections: 20`) was promoted to production with the release.',
    impactAssessment:
      'Checkout failures for EU card payments for 1 h 45 min; no duplicate charges; revenue delayed, not lost.',
    contributingFactors: [
      'Environment-specific values live in the same file as shared defaults',
      'The canary stage ran in us-east-1 only, where traffic was low',
      'Client retries without jitter multiplied load',
    ],
    remediationOptions: [
      'Validate pool sizes per environment in CI',
      'Add an EU canary stage before full rollout',
      'Retry with exponential backoff and jitter',
    ],
    confidence: 0.82,
    completedAt: '2024-05-01T17:02:00.000Z',
  },
};

const MINIMAL: IncidentReport = {
  workspaceName: 'Acme',
  generatedAt: '2024-05-02T09:30:00.000Z',
  incident: {
    id: 'INC-7',
    summary: 'Search results slow',
    priority: 'P3',
    status: 'OPEN',
    createdAt: '2024-05-02T09:00:00.000Z',
  },
  comments: [],
  messages: [],
  history: [],
};

const expectPdf = (pdf: Buffer): void => {
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.length).toBeGreaterThan(5_000);
  expect(pdf.length).toBeLessThan(500_000);
};

describe('renderIncidentReportPdf', () => {
  it('renders a full report a reader can search, fetching none of the addresses in its Markdown', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    const pdf = await renderIncidentReportPdf(FULL);
    expect(fetch).not.toHaveBeenCalled();
    fetch.mockRestore();
    expectPdf(pdf);
    const text = squash(textOf(pdf));
    for (const phrase of [
      FULL.incident.summary,
      'INC-2024-0142',
      'Rolling back 2024.05.01-3 now.',
      'Status OPEN -> ACKNOWLEDGED',
      'Assigned to dana.ops@acme.example',
      'Comment: Rolling back 2024.05.01-3 now.',
      'Time to acknowledge4 min',
      '1 h 46 min',
      'Confidence 82%',
      'deployment dashboard (https://grafana.example/d/deploys)',
      '€61k',
      'Page 1 of',
    ]) {
      expect(text).toContain(squash(phrase));
    }
    expect(text).not.toContain('**');
    expect(text).not.toContain('```');
  });

  it('renders a minimal report, saying what was not recorded', async () => {
    const pdf = await renderIncidentReportPdf(MINIMAL);
    expectPdf(pdf);
    const text = squash(textOf(pdf));
    expect(text).toContain(squash('Search results slow'));
    expect(text).toContain('INC-7');
    expect(text).toContain(squash('None recorded'));
    expect(text).toContain(squash('Page 1 of 1'));
  });

  it('draws any Unicode the reader types: accents and the euro sign as is, emoji left out', async () => {
    const report = {
      ...MINIMAL,
      incident: { ...MINIMAL.incident, summary: 'Café payments down – €5k/min 🚨 東京 👩🏽‍💻' },
    };
    const text = textOf(await renderIncidentReportPdf(report));
    expect(squash(text)).toContain(squash('Café payments down – €5k/min'));
    expect(text).not.toContain('🚨');
  });

  it('spreads a long thread over numbered pages', async () => {
    const history = Array.from({ length: 400 }, (_, index) =>
      event('COMMENT_ADDED', new Date(Date.UTC(2024, 4, 1, 14, index)).toISOString(), `user${index}@acme.example`, {
        message: `Update ${index}: ${'still investigating the checkout latency '.repeat(3)}`,
      }),
    );
    const text = squash(textOf(await renderIncidentReportPdf({ ...FULL, history })));
    const pages = Number(/Page1of(\d+)/.exec(text)?.[1]);
    expect(pages).toBeGreaterThan(5);
    expect(text).toContain(`Page${pages}of${pages}`);
    expect(text).toContain('Update399:');
  });

  it('gives identical bytes for identical input', async () => {
    const [first, second] = await Promise.all([renderIncidentReportPdf(FULL), renderIncidentReportPdf(FULL)]);
    expect(first?.equals(second ?? Buffer.alloc(0))).toBe(true);
  });

  it('reads the same text without poppler', async () => {
    const pdf = await renderIncidentReportPdf(FULL);
    expect(squash(pdfkitText(pdf))).toContain(squash(FULL.incident.summary));
  });
});
