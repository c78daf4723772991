import { describe, expect, it, vi } from 'vitest';
import { renderIncidentReportPdf } from '#lib/reports/pdf/render.ts';
import { pdfkitText, squash, textOf } from '../support/pdf-text.ts';
import { FULL, MINIMAL, event } from './report-fixtures.ts';

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
      'Status changed from OPEN to ACKNOWLEDGED',
      'Assigned to dana.ops@acme.example',
      'Comment: Rolling back 2024.05.01-3 now.',
      'Time to acknowledge4 min',
      '1 h 46 min',
      'Confidence 82%',
      'Playbook runs',
      'Payments degraded (version 3)',
      'Gateway errors at 38% in eu-west-1 only',
      'Skipped: The acquirer is healthy',
      'Also done: Paged the acquirer account manager',
      'Notifications sent',
      '#payments-incidents',
      'deployment dashboard (https://grafana.example/d/deploys)',
      '€61k',
      'Page 1 of',
    ]) {
      expect(text).toContain(squash(phrase));
    }
    expect(text).not.toContain('**');
    expect(text).not.toContain('```');
  });

  it('renders a minimal report without a heading for what has no data', async () => {
    const pdf = await renderIncidentReportPdf(MINIMAL);
    expectPdf(pdf);
    const text = squash(textOf(pdf));
    expect(text).toContain(squash('Search results slow'));
    expect(text).toContain('INC-7');
    expect(text).toContain(squash('Page 1 of 1'));
    for (const empty of [
      'None recorded',
      'Timeline',
      'Comments',
      'Latest analysis',
      'Alerts',
      'Technical description',
      'Resolution and root cause',
      'Blast radius',
      'Assignee',
      'Playbook runs',
      'Notifications sent',
    ]) {
      expect(text).not.toContain(squash(empty));
    }
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
