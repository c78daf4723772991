import type { HistoryEvent } from '#lib/tickets/history.ts';
import type { IncidentReport } from '../incident-report.ts';
import type { Content } from './content.ts';
import { printable } from './fonts.ts';
import { COLORS, NONE, NO_VALUE, formatTime, truncate } from './format.ts';
import { firstLine, markdownBlocks } from './markdown.ts';
import { section } from './sections.ts';

interface TimelineEntry {
  at: string;
  actor: string;
  what: string;
  order: number;
}

const changeOf = (from: string | null | undefined, to: string | null | undefined): string => {
  const before = from === undefined || from === null || from === '' ? 'none' : truncate(from, 80);
  const after = to === undefined || to === null || to === '' ? 'none' : truncate(to, 80);
  return `${before} -> ${after}`;
};

/** One line per history event, in the words of someone reading the audit trail. */
const describeEvent = (event: HistoryEvent): string => {
  const note = event.message !== undefined && event.message.trim() !== '' ? firstLine(event.message) : '';
  const withNote = (text: string): string => (note === '' ? text : `${text}: ${note}`);
  switch (event.event) {
    case 'CREATED':
      return withNote('Incident created');
    case 'STATUS_CHANGE':
      return withNote(`Status ${changeOf(event.from, event.to)}`);
    case 'COMMENT_ADDED':
      return note === '' ? 'Comment added' : `Comment: ${note}`;
    case 'ASSIGNED':
      return event.to === undefined || event.to === null || event.to === ''
        ? withNote(event.from ? `Unassigned (was ${event.from})` : 'Unassigned')
        : withNote(`Assigned to ${event.to}`);
    case 'PRIORITY_CHANGE':
      return withNote(`Priority ${changeOf(event.from, event.to)}`);
    case 'RESOLVED':
      return withNote('Resolved');
    case 'FIELD_CHANGE':
      return withNote(`${event.field ?? 'Field'} changed: ${changeOf(event.from, event.to)}`);
    case 'SIGNAL_LINKED':
      return withNote(event.to ? `Signal linked: ${event.to}` : 'Signal linked');
    case 'PLAYBOOK_STARTED':
      return withNote('Playbook started');
    case 'DELETED':
      return withNote('Deleted');
  }
};

/** Sort key: unparsable timestamps go last, keeping their input order. */
export const timeOf = (iso: string): number => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
};

const timelineEntries = (report: IncidentReport): TimelineEntry[] => {
  const entries: TimelineEntry[] = [
    ...report.history.map((event, order) => ({
      at: event.timestamp,
      actor: event.actor,
      what: describeEvent(event),
      order,
    })),
    ...report.messages.map((message, order) => ({
      at: message.createdAt,
      actor: message.actor,
      what: markdownBlocks(message.text)
        .map((block) =>
          block.kind === 'list' ? block.list.items.map((item) => `- ${item.text}`).join('\n') : block.text,
        )
        .join('\n'),
      order: report.history.length + order,
    })),
  ];
  return entries.sort((a, b) => timeOf(a.at) - timeOf(b.at) || a.order - b.order);
};

export const timelineSection = (report: IncidentReport): Content => {
  const entries = timelineEntries(report);
  if (entries.length === 0) return section('Timeline', { text: NONE, style: 'none' });
  const header = ['Time (UTC)', 'Actor', 'What happened'].map((text) => ({ text, style: 'tableHeader' }));
  return section('Timeline', {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: [74, 120, '*'],
      body: [
        header,
        ...entries.map((entry) => [
          { text: formatTime(entry.at, false), color: COLORS.muted, noWrap: true },
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
  });
};
