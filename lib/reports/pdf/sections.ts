import type { IncidentReport } from '../incident-report.ts';
import type { Content } from './content.ts';
import { printable } from './fonts.ts';
import {
  COLORS,
  NONE,
  NO_VALUE,
  PRIORITY_COLORS,
  STATUS_COLORS,
  colorOf,
  formatDuration,
  formatTime,
} from './format.ts';
import { boxLayout, markdownContent } from './markdown.ts';

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

/** Section headings stay with what follows them (see `pageBreakBefore`). */
export const heading = (title: string): Content => ({ text: title, style: 'heading', headlineLevel: 1 });

export const section = (title: string, body: Content): Content => ({
  stack: [heading(title), body],
  margin: [0, 14, 0, 0],
});

export const labelled = (label: string, body: Content): Content => ({
  stack: [{ text: label.toUpperCase(), style: 'label', headlineLevel: 2 }, body],
  margin: [0, 0, 0, 8],
});

export const textOrNone = (text: string | undefined): Content =>
  text === undefined || text.trim() === '' ? { text: NONE, style: 'none' } : markdownContent(text);

export const titleBlock = (report: IncidentReport): Content => {
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
          meta('Generated', formatTime(report.generatedAt)),
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

export const summarySection = (incident: IncidentReport['incident']): Content =>
  section('Summary', [
    labelled('Description for customers', textOrNone(incident.description)),
    labelled('Impact', textOrNone(incident.impactSummary)),
    labelled('Blast radius', textOrNone(incident.blastRadius)),
  ]);

export const fieldsSection = (incident: IncidentReport['incident']): Content => {
  const value = (text: string | undefined): string =>
    text === undefined || text.trim() === '' ? NO_VALUE : printable(text);
  const pairs: [string, string][][] = [
    [
      ['Source', value(incident.source)],
      ['Created', formatTime(incident.createdAt)],
    ],
    [
      ['Service area', value(incident.serviceArea)],
      ['Acknowledged', formatTime(incident.acknowledgedAt)],
    ],
    [
      ['Environment', value(incident.environment)],
      ['Resolved', formatTime(incident.resolvedAt)],
    ],
    [
      ['Region', value(incident.region)],
      ['Time to acknowledge', formatDuration(incident.createdAt, incident.acknowledgedAt)],
    ],
    [
      ['Assignee', value(incident.assignedToEmail)],
      ['Time to resolve', formatDuration(incident.createdAt, incident.resolvedAt)],
    ],
  ];
  if (incident.updatedAt !== undefined)
    pairs.push([
      ['', ''],
      ['Last updated', formatTime(incident.updatedAt)],
    ]);
  return section('Details', {
    fontSize: 9.5,
    table: {
      widths: [78, '*', 104, '*'],
      body: pairs.map((row) => row.flatMap(([label, text]) => [{ text: label, style: 'fieldLabel' }, { text }])),
    },
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
