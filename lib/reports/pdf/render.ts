import { alertsSection } from './alerts.ts';
import type { Content } from './content.ts';
import { customerSection } from './customer-summary.ts';
import { fieldsSection, noteBlock, resolutionSection, textSection, titleBlock } from './sections.ts';
import { analysisSection, commentsSection } from './thread.ts';
import { notificationsSection, playbookRunsSection } from './responses.ts';
import { timelineSection } from './timeline.ts';
import { withLocalTimes } from './local-times.ts';
import type { IncidentReport } from '../incident-report.ts';
import { FONT, pdfmake, printable } from './fonts.ts';
import { COLORS, timeFormatIn } from './format.ts';

/**
 * Renders an incident report as an A4 PDF a manager can read: title block, the caller's note, what
 * happened in customers' words, fields, resolution and root cause, the alerts behind it, the technical
 * description, one timeline of history and thread, the playbook runs with their steps and notes, comments,
 * the notifications sent and the latest analysis with when it was made. Every time, those written inside
 * texts included, is the workspace zone's wall clock, to the second, the zone named in the title block
 * and the timeline; a section with nothing to show is left out.
 *
 * Deterministic: the only time the renderer knows is the report's own timestamps, and the PDF's creation
 * date (which also seeds its file id) is `generatedAt`, so identical reports give identical bytes.
 */

interface LaidOutNode {
  headlineLevel?: number;
  canvas?: unknown;
  startPosition?: { verticalRatio?: number };
}

/**
 * Where a section heading starts lower than this share of the page, too little room is left for what it
 * introduces, so it starts the next page instead of standing alone at the bottom.
 */
const SECTION_HEADING_LOWEST_START = 0.88;

/** A heading or comment header with nothing after it on its page moves to the next page. */
const keepWithNext = (node: LaidOutNode, nodes: { getFollowingNodesOnPage(): LaidOutNode[] }): boolean => {
  if (node.headlineLevel === undefined) return false;
  if (node.headlineLevel === 1 && (node.startPosition?.verticalRatio ?? 0) > SECTION_HEADING_LOWEST_START) return true;
  return nodes.getFollowingNodesOnPage().every((following) => following.canvas !== undefined);
};

/**
 * The content without the bottom margin of its very last node: pdfmake starts a new page for a bottom margin
 * larger than the room left on the page, even when nothing follows, and so ended a full report with a blank page.
 */
const withoutTrailingMargin = (content: Content): Content => {
  if (Array.isArray(content)) {
    const last = content.at(-1);
    return last === undefined ? content : [...content.slice(0, -1), withoutTrailingMargin(last)];
  }
  if (typeof content !== 'object') return content;
  const { margin, stack } = content;
  return {
    ...content,
    ...(Array.isArray(margin) && margin.length === 4 && { margin: [...margin.slice(0, 3), 0] }),
    ...(Array.isArray(stack) && { stack: withoutTrailingMargin(stack) }),
  };
};

const documentOf = (given: IncidentReport): Record<string, unknown> => {
  const time = timeFormatIn(given.timezone);
  const report = withLocalTimes(given, time);
  const { incident } = report;
  const created = new Date(report.generatedAt);
  const generated = `${time(report.generatedAt)} ${report.timezone}`;
  return {
    pageSize: 'A4',
    pageMargins: [40, 54, 40, 46],
    info: {
      title: printable(`Incident report ${incident.id}: ${incident.summary}`),
      subject: 'Incident report',
      author: printable(report.workspaceName),
      creator: 'Incident service',
      producer: 'Incident service (pdfmake)',
      // Without a date pdfkit stamps the current time; an unparsable one falls back to the epoch so the
      // bytes stay a function of the input.
      creationDate: Number.isNaN(created.getTime()) ? new Date(0) : created,
    },
    header: () => ({
      columns: [
        { text: printable(`Incident report · ${incident.id}`), bold: true },
        { text: printable(report.workspaceName), alignment: 'right' },
      ],
      fontSize: 8,
      color: COLORS.muted,
      margin: [40, 24, 40, 0],
    }),
    footer: (page: number, pages: number) => ({
      columns: [
        { text: printable(`Generated ${generated}`) },
        { text: `Page ${page} of ${pages}`, alignment: 'right' },
      ],
      fontSize: 8,
      color: COLORS.muted,
      margin: [40, 16, 40, 0],
    }),
    pageBreakBefore: keepWithNext,
    defaultStyle: { font: FONT, fontSize: 10, lineHeight: 1.25, color: COLORS.ink },
    styles: {
      heading: { fontSize: 13, bold: true, color: COLORS.accent, margin: [0, 0, 0, 6] },
      label: { fontSize: 7.5, bold: true, color: COLORS.muted, characterSpacing: 0.6, margin: [0, 0, 0, 2] },
      fieldLabel: { color: COLORS.muted },
      tableHeader: { bold: true, color: COLORS.muted, fontSize: 8 },
      none: { italics: true, color: COLORS.faint },
    },
    content: withoutTrailingMargin([
      titleBlock(report, time),
      ...noteBlock(report.note),
      customerSection(incident, time),
      fieldsSection(incident, time),
      ...resolutionSection(incident),
      ...alertsSection(report, time),
      ...textSection('Technical description', incident.techDescription),
      ...timelineSection(report, time),
      ...playbookRunsSection(report, time),
      ...commentsSection(report.comments, time),
      ...notificationsSection(report, time),
      ...analysisSection(report, time),
    ]),
  };
};

export const renderIncidentReportPdf = (report: IncidentReport): Promise<Buffer> =>
  pdfmake.createPdf(documentOf(report)).getBuffer();
