import type { IncidentReport } from '../incident-report.ts';
import type { Content } from './content.ts';
import { printable } from './fonts.ts';
import { COLORS, NO_VALUE, type TimeFormat } from './format.ts';
import { section, stripedTable, tableHeader } from './sections.ts';
import { timelineEntries } from './timeline-entries.ts';

/** The timeline table; no section at all when nothing was recorded. */
export const timelineSection = (report: IncidentReport, time: TimeFormat): Content[] => {
  const entries = timelineEntries(report);
  if (entries.length === 0) return [];
  return [
    section(
      'Timeline',
      stripedTable(
        [84, 120, '*'],
        tableHeader([`Time (${report.timezone})`, 'Actor', 'What happened']),
        entries.map((entry) => [
          { text: time(entry.at), color: COLORS.muted, noWrap: true },
          { text: printable(entry.actor) || NO_VALUE },
          { text: printable(entry.what) || NO_VALUE },
        ]),
      ),
    ),
  ];
};
