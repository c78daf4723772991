import type { HistoryEvent } from '#lib/tickets/history.ts';
import type { IncidentReport } from '../incident-report.ts';
import { truncate } from './format.ts';
import { firstLine, markdownBlocks } from './markdown.ts';

/** One row of the timeline: one thing that happened, however many records tell of it. */
export interface TimelineEntry {
  at: string;
  actor: string;
  what: string;
}

/**
 * A change is written twice, as a history event (the audit trail) and as a thread message (what people
 * follow), by the same write, a few milliseconds apart. Records of one actor this close in time, about
 * the same topic, are one change.
 */
const SAME_CHANGE_MS = 2_000;

/** What a record is about; records of different topics never merge. */
type Topic = 'created' | 'status' | 'priority' | 'assignee';

const HISTORY_TOPICS: Partial<Record<HistoryEvent['event'], Topic>> = {
  CREATED: 'created',
  STATUS_CHANGE: 'status',
  RESOLVED: 'status',
  PRIORITY_CHANGE: 'priority',
  ASSIGNED: 'assignee',
};

const MESSAGE_TOPICS: Partial<Record<string, Topic>> = {
  STATUS_CHANGE: 'status',
  RESOLUTION: 'status',
  PRIORITY_CHANGE: 'priority',
  ASSIGNMENT: 'assignee',
};

/**
 * `SYSTEM` messages tell of several things (the creation, a playbook started, signals resolved); only the
 * create's is about the creation history records. The others merge by their text, if at all.
 */
const messageTopic = (kind: string, text: string): Topic | undefined =>
  kind === 'SYSTEM' ? (text.startsWith('Incident created') ? 'created' : undefined) : MESSAGE_TOPICS[kind];

const changeOf = (from: string | null | undefined, to: string | null | undefined): string => {
  const before = from === undefined || from === null || from === '' ? 'none' : truncate(from, 80);
  const after = to === undefined || to === null || to === '' ? 'none' : truncate(to, 80);
  return `${before} -> ${after}`;
};

/** Worded as the thread words the same change, so a merged row reads the same whichever text wins. */
const changedFromTo = (what: string, from: string | null | undefined, to: string | null | undefined): string =>
  `${what} changed from ${from || 'none'} to ${to || 'none'}`;

/** One line per history event, in the words of someone reading the audit trail. */
const describeEvent = (event: HistoryEvent): string => {
  const note = event.message !== undefined && event.message.trim() !== '' ? firstLine(event.message) : '';
  const withNote = (text: string): string => (note === '' ? text : `${text}: ${note}`);
  switch (event.event) {
    case 'CREATED':
      return withNote('Incident created');
    case 'STATUS_CHANGE':
      return withNote(changedFromTo('Status', event.from, event.to));
    case 'COMMENT_ADDED':
      return note === '' ? 'Comment added' : `Comment: ${note}`;
    case 'ASSIGNED':
      return event.to === undefined || event.to === null || event.to === ''
        ? withNote(event.from ? `Unassigned (was ${event.from})` : 'Unassigned')
        : withNote(`Assigned to ${event.to}`);
    case 'PRIORITY_CHANGE':
      return withNote(changedFromTo('Priority', event.from, event.to));
    case 'RESOLVED':
      return withNote('Incident resolved');
    case 'FIELD_CHANGE':
      return withNote(`${event.field ?? 'Field'} changed: ${changeOf(event.from, event.to)}`);
    case 'SIGNAL_LINKED':
      return withNote(event.to ? `Signal linked: ${event.to}` : 'Signal linked');
    case 'PLAYBOOK_STARTED':
      return note === '' ? 'Playbook started' : note;
    case 'DELETED':
      return withNote('Deleted');
    case 'ESCALATION':
      return withNote('Escalated: not acknowledged');
  }
};

const describeMessage = (text: string): string =>
  markdownBlocks(text)
    .map((block) => (block.kind === 'list' ? block.list.items.map((item) => `- ${item.text}`).join('\n') : block.text))
    .join('\n');

/** Sort key: unparsable timestamps go last, keeping their input order. */
export const timeOf = (iso: string): number => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
};

interface TimelineRecord {
  at: string;
  time: number;
  actor: string;
  what: string;
  topic?: Topic;
  /**
   * The text a history event carries and its thread message repeats word for word (a playbook started):
   * records of one change, whatever their topic.
   */
  echo?: string;
  /** A change has at most one record of each slot: a second one is the next change. */
  slot: string;
  order: number;
}

const recordsOf = (report: IncidentReport): TimelineRecord[] => [
  ...report.history.map((event, order) => ({
    at: event.timestamp,
    time: timeOf(event.timestamp),
    actor: event.actor,
    what: describeEvent(event),
    topic: HISTORY_TOPICS[event.event],
    echo: event.message?.trim() || undefined,
    slot: `history:${event.event}`,
    order,
  })),
  ...report.messages.map((message, order) => ({
    at: message.createdAt,
    time: timeOf(message.createdAt),
    actor: message.actor,
    what: describeMessage(message.text),
    topic: messageTopic(message.kind, message.text),
    echo: message.text.trim() || undefined,
    slot: 'message',
    order: report.history.length + order,
  })),
];

/** A message names its actor (`... by dana@acme.example`), which the timeline prints in its own column. */
const withoutActor = (what: string, actor: string): string =>
  what.endsWith(` by ${actor}`) ? what.slice(0, -` by ${actor}`.length) : what;

/** The richer of the texts of one change: the one saying most once its actor is left out. */
const richest = (records: readonly TimelineRecord[], actor: string): string =>
  records
    .map((record) => withoutActor(record.what, actor))
    .reduce((best, what) => (what.length > best.length ? what : best), '');

/**
 * The history and the thread as one list, oldest first, each change once: a history event and the
 * message of the same change merge into one row carrying the richer text.
 */
type Change = { first: TimelineRecord; records: TimelineRecord[] };

/**
 * The change a record belongs to, if one is open to it. Changes are in the order of their first records,
 * so the search walks back only as far as the merge window.
 */
const openChangeFor = (changes: readonly Change[], record: TimelineRecord): Change | undefined => {
  if (!record.topic && !record.echo) return undefined;
  const sameChange = (change: Change): boolean =>
    change.first.actor === record.actor &&
    change.records.every((other) => other.slot !== record.slot) &&
    ((record.topic !== undefined && change.first.topic === record.topic) ||
      (record.echo !== undefined && change.records.some((other) => other.echo === record.echo)));
  for (let index = changes.length - 1; index >= 0; index -= 1) {
    const change = changes[index] as Change;
    if (record.time - change.first.time > SAME_CHANGE_MS) return undefined;
    if (sameChange(change)) return change;
  }
  return undefined;
};

/**
 * The history and the thread as one list, oldest first, each change once: a history event and the
 * message of the same change merge into one row carrying the richer text.
 */
export const timelineEntries = (report: IncidentReport): TimelineEntry[] => {
  const records = recordsOf(report).sort((a, b) => a.time - b.time || a.order - b.order);
  const changes: Change[] = [];
  for (const record of records) {
    const change = openChangeFor(changes, record);
    if (change) change.records.push(record);
    else changes.push({ first: record, records: [record] });
  }
  return changes.map(({ first, records: merged }) => ({
    at: first.at,
    actor: first.actor,
    what: richest(merged, first.actor),
  }));
};
