import type { IncidentReport } from '../incident-report.ts';
import type { Content } from './content.ts';
import { printable } from './fonts.ts';
import { COLORS, NO_VALUE, type TimeFormat } from './format.ts';
import { section } from './sections.ts';
import { timelineEntries } from './timeline-entries.ts';

/** The timeline table; no section at all when nothing was recorded. */
export const timelineSection = (report: IncidentReport, time: TimeFormat): Content[] => {
  const entries = timelineEntries(report);
  if (entries.length === 0) return [];
  const header = [`Time (${report.timezone})`, 'Actor', 'What happened'].map((text) => ({
    text: printable(text),
    style: 'tableHeader',
  }));
  return [
    section('Timeline', {
      table: {
        headerRows: 1,
        dontBreakRows: true,
        widths: [84, 120, '*'],
        body: [
          header,
          ...entries.map((entry) => [
            { text: time(entry.at), color: COLORS.muted, noWrap: true },
            { text: printable(entry.actor) || NO_VALUE },
            { text: printable(entry.what) || NO_VALUE },
          ]),
        ],
      },
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
    }),
  ];
};
