import type { Comment, HistoryEvent, Message } from '../model.ts';
import { when } from '../ui.tsx';

interface Entry {
  id: string;
  at: string;
  kind: 'comment' | 'event' | 'message';
  who: string;
  text: string;
}

/** Messages the history already tells (a status change, an assignment, the resolution) are left out. */
const TOLD_BY_HISTORY = new Set(['STATUS_CHANGE', 'ASSIGNMENT', 'RESOLUTION']);

const describe = (event: HistoryEvent): string => {
  const change = event.from || event.to ? `${event.from ?? '—'} → ${event.to ?? '—'}` : '';
  const what = `${event.event.replaceAll('_', ' ').toLowerCase()}${event.field ? ` (${event.field})` : ''}`;
  return [what, change, event.message].filter(Boolean).join(': ');
};

/**
 * One timeline, newest first: the incident's history events, its comments in full, and the messages the
 * service wrote (notifications, system notes). A comment's history event is shown as the comment itself.
 */
export const timelineOf = (history: HistoryEvent[], comments: Comment[], messages: Message[]): Entry[] => {
  // A history event that carries a message (a playbook started) tells what the thread's note of it says.
  const toldByEvents = new Set(history.map((event) => event.message).filter(Boolean));
  return [
    ...history
      .filter((event) => event.event !== 'COMMENT_ADDED')
      .map(
        (event): Entry => ({
          id: event.id,
          at: event.timestamp,
          kind: 'event',
          who: event.actor,
          text: describe(event),
        }),
      ),
    ...comments.map(
      (comment): Entry => ({
        id: comment.id,
        at: comment.createdAt,
        kind: 'comment',
        who: comment.authorEmail,
        text: comment.content,
      }),
    ),
    ...messages
      .filter((message) => !TOLD_BY_HISTORY.has(message.kind) && !toldByEvents.has(message.text))
      .map(
        (message): Entry => ({
          id: message.id,
          at: message.createdAt,
          kind: 'message',
          who: message.actor,
          text: message.text,
        }),
      ),
  ].sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id));
};

export const Timeline = ({ entries }: { entries: Entry[] }) => (
  <ol class="timeline">
    {entries.map((entry) => (
      <li key={entry.id} class={`timeline-${entry.kind}`}>
        <div class="timeline-head">
          <span class="timeline-kind">{entry.kind}</span> <span>{entry.who}</span>{' '}
          <time dateTime={entry.at}>{when(entry.at)}</time>
        </div>
        <p class="timeline-text">{entry.text}</p>
      </li>
    ))}
  </ol>
);
