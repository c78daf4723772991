import type { IncidentReport } from '../incident-report.ts';
import type { Content } from './content.ts';
import { printable } from './fonts.ts';
import {
  COLORS,
  NONE,
  NO_VALUE,
  PRIORITY_COLORS,
  STATUS_COLORS,
  type TimeFormat,
  colorOf,
  formatDuration,
} from './format.ts';
import { boxLayout, fitsEasily, markdownContent } from './markdown.ts';

/** The report's title block, its note, and the summary and fields sections. */
const badge = (label: string, value: string, color: string): Content => ({
  width: 'auto',
  table: {
    body: [
      [
        {
          text: [
            { text: `${label}  `, fontSize: 7.5 },
            { text: printable(value.toUpperCase()), bold: true },
          ],
          color: '#ffffff',
          fontSize: 9.5,
        },
      ],
    ],
  },
  layout: boxLayout(color, 7),
});

/**
 * The `headlineLevel` a heading has for render.ts's `pageBreakBefore`, which moves it to the next page when
 * nothing follows it on its own. Not inside a block kept whole: that block moves as one, and a page break
 * forced inside it would lose all but its first page (pdfmake keeps only that).
 */
export const keptWithNext = (level: 1 | 2, inWholeBlock: boolean): { headlineLevel?: number } =>
  inWholeBlock ? {} : { headlineLevel: level };

const heading = (title: string, inWholeBlock: boolean): Content => ({
  text: title,
  style: 'heading',
  ...keptWithNext(1, inWholeBlock),
});

const isUnbreakable = (content: Content | undefined): boolean =>
  typeof content === 'object' && content !== null && !Array.isArray(content) && content.unbreakable === true;

/**
 * A section: its heading, then its body. pdfmake places a block that must stay whole (an alert, a playbook
 * run) only once it knows the block does not fit, and reports such a block's place before it moved, so no
 * `pageBreakBefore` rule can see a heading left behind by it: a heading is laid out as one block with such a
 * first block instead, and moves with it.
 */
export const section = (title: string, body: Content): Content => {
  const [first, ...rest] = Array.isArray(body) ? body : [body];
  return {
    stack: isUnbreakable(first)
      ? [{ stack: [heading(title, true), first], unbreakable: true }, ...rest]
      : [heading(title, false), ...(Array.isArray(body) ? body : [body])],
    margin: [0, 14, 0, 0],
  };
};

/**
 * A table of rows that each stay on one page, its header repeated on every page it spans and kept with
 * its first row, shaded every other row.
 */
export const stripedTable = (widths: (number | string)[], header: Content[], rows: Content[][]): Content => ({
  table: { headerRows: 1, keepWithHeaderRows: 1, dontBreakRows: true, widths, body: [header, ...rows] },
  fontSize: 8.5,
  layout: {
    hLineWidth: (index: number) => (index === 1 ? 0.8 : 0),
    vLineWidth: () => 0,
    hLineColor: () => COLORS.faint,
    fillColor: (row: number) => (row > 0 && row % 2 === 0 ? COLORS.shade : null),
    paddingTop: () => 3,
    paddingBottom: () => 3,
    paddingLeft: (index: number) => (index === 0 ? 4 : 6),
    paddingRight: () => 4,
  },
});

/** A table's header cells. */
export const tableHeader = (titles: string[]): Content[] =>
  titles.map((text) => ({ text: printable(text), style: 'tableHeader' }));

/**
 * A label over its text. When `texts` (what the body says) fit easily on a page, label and body are one
 * block, so the label never stays at a page's foot while its text starts the next (see `section`).
 */
export const labelled = (label: string, body: Content, texts: string[]): Content => {
  const whole = fitsEasily(texts);
  return {
    stack: [{ text: label.toUpperCase(), style: 'label', ...keptWithNext(2, whole) }, body],
    unbreakable: whole,
    margin: [0, 0, 0, 8],
  };
};

export const textOrNone = (text: string | undefined): Content =>
  text === undefined || text.trim() === '' ? { text: NONE, style: 'none' } : markdownContent(text);

export const titleBlock = (report: IncidentReport, time: TimeFormat): Content => {
  const { incident } = report;
  const meta = (label: string, value: string): Content => ({
    stack: [
      { text: label, style: 'label' },
      { text: printable(value), fontSize: 10 },
    ],
  });
  return {
    stack: [
      { text: 'INCIDENT REPORT', fontSize: 8.5, bold: true, color: COLORS.accent, characterSpacing: 1.2 },
      {
        text: printable(incident.summary) || NO_VALUE,
        fontSize: 19,
        bold: true,
        margin: [0, 4, 0, 8],
        lineHeight: 1.1,
      },
      {
        columns: [
          badge('STATUS', incident.status, colorOf(STATUS_COLORS, incident.status)),
          badge('PRIORITY', incident.priority, colorOf(PRIORITY_COLORS, incident.priority)),
        ],
        columnGap: 8,
      },
      {
        columns: [
          meta('Incident', incident.id),
          meta('Workspace', report.workspaceName),
          meta('Generated', time(report.generatedAt)),
          meta('Times in', report.timezone),
        ],
        columnGap: 12,
        margin: [0, 12, 0, 0],
      },
      {
        canvas: [{ type: 'line', x1: 0, y1: 0, x2: 515, y2: 0, lineWidth: 0.8, lineColor: COLORS.rule }],
        margin: [0, 10, 0, 0],
      },
    ],
  };
};

export const noteBlock = (note: string | undefined): Content[] => {
  if (note === undefined || note.trim() === '') return [];
  return [
    {
      table: {
        widths: ['*'],
        body: [
          [
            {
              stack: [{ text: 'NOTE FROM THE REQUESTER', style: 'label', color: COLORS.accent }, markdownContent(note)],
            },
          ],
        ],
      },
      layout: {
        ...boxLayout('#eef4fa', 9),
        vLineWidth: (index: number) => (index === 0 ? 3 : 0),
        vLineColor: () => COLORS.accent,
      },
      margin: [0, 12, 0, 0],
    },
  ];
};

const isSet = (text: string | undefined): text is string => text !== undefined && text.trim() !== '';

/** The fields that are set, two to a row; a report of a new incident shows no row of dashes. */
export const fieldsSection = (incident: IncidentReport['incident'], time: TimeFormat): Content => {
  const texts: [string, string | undefined][] = [
    ['Source', incident.source],
    ['Service area', incident.serviceArea],
    ['Environment', incident.environment],
    ['Region', incident.region],
    ['Assignee', incident.assignedToEmail],
    ['Resolved by', incident.resolvedBy],
  ];
  const times: [string, string | undefined][] = [
    ['Created', incident.createdAt],
    ['Acknowledged', incident.acknowledgedAt],
    ['Resolved', incident.resolvedAt],
  ];
  const durations: [string, string][] = [
    ['Time to acknowledge', formatDuration(incident.createdAt, incident.acknowledgedAt)],
    ['Time to resolve', formatDuration(incident.createdAt, incident.resolvedAt)],
  ];
  const shown: [string, string][] = [
    ...texts.flatMap(([label, text]): [string, string][] => (isSet(text) ? [[label, printable(text)]] : [])),
    ...times.flatMap(([label, at]): [string, string][] => (isSet(at) ? [[label, time(at)]] : [])),
    ...durations.filter(([, text]) => text !== NO_VALUE),
    ['Last updated', time(incident.updatedAt)],
  ];
  const rows = Array.from({ length: Math.ceil(shown.length / 2) }, (_, row) =>
    [shown[row * 2], shown[row * 2 + 1] ?? ['', '']].flatMap((pair) => {
      const [label, text] = pair ?? ['', ''];
      return [{ text: label, style: 'fieldLabel' }, { text }];
    }),
  );
  return section('Details', {
    fontSize: 9.5,
    table: { widths: [92, '*', 104, '*'], body: rows },
    layout: {
      hLineWidth: (index: number, node: { table: { body: unknown[] } }) =>
        index === 0 || index === node.table.body.length ? 0 : 0.5,
      vLineWidth: () => 0,
      hLineColor: () => COLORS.rule,
      paddingTop: () => 4,
      paddingBottom: () => 4,
      paddingLeft: (index: number) => (index === 2 ? 14 : 0),
    },
  });
};

/** A section for Markdown that may be empty: none at all when it is. */
export const textSection = (title: string, text: string | undefined): Content[] =>
  isSet(text) ? [section(title, markdownContent(text))] : [];

/** What ended the incident and why it happened, as given when it was resolved; none without either. */
export const resolutionSection = (incident: IncidentReport['incident']): Content[] => {
  const parts = [
    ...(isSet(incident.resolution)
      ? [labelled('How it was resolved', markdownContent(incident.resolution), [incident.resolution])]
      : []),
    ...(isSet(incident.rootCause)
      ? [labelled('Root cause', markdownContent(incident.rootCause), [incident.rootCause])]
      : []),
  ];
  return parts.length === 0 ? [] : [section('Resolution and root cause', parts)];
};
