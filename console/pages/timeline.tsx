import type { Comment, HistoryEvent, Message } from '../model.ts';
import { inWords, when, word } from '../ui.tsx';

interface Entry {
  id: string;
  at: string;
  kind: 'comment' | 'event' | 'message';
  who: string;
  text: string;
}

/** Messages the history already tells (a status change, an assignment, the resolution) are left out. */
const TOLD_BY_HISTORY: ReadonlySet<Message['kind']> = new Set(['STATUS_CHANGE', 'ASSIGNMENT', 'RESOLUTION']);

/** A history event as a sentence, names not ids (a linked alert by its name), times in words. */
const describe = (event: HistoryEvent, alertNames: ReadonlyMap<string, string>): string => {
  const note = event.message ? ` (${inWords(event.message)})` : '';
  switch (event.event) {
    case 'CREATED':
      return `Opened the incident${note}`;
    case 'STATUS_CHANGE':
      return `Moved it from ${word(event.from)} to ${word(event.to)}${note}`;
    case 'PRIORITY_CHANGE':
      return `Changed the priority from ${word(event.from)} to ${word(event.to)}${note}`;
    case 'ASSIGNED':
      return event.to ? `Assigned it to ${event.to}${note}` : `Unassigned it${note}`;
    case 'RESOLVED':
      return `Resolved it${note}`;
    case 'SIGNAL_LINKED':
      return `Linked the alert ${alertNames.get(event.to ?? '') ?? 'that has since been deleted'}${note}`;
    case 'ESCALATION':
      return event.message ? inWords(event.message) : `Escalation ${event.to ?? ''}`;
    case 'FIELD_CHANGE':
      return `Changed ${event.field ?? 'a field'}${note}`;
    default:
      return `${word(event.event)}${note}`;
  }
};

/**
 * One timeline, newest first: the incident's history events, its comments in full, and the messages the
 * service wrote (notifications, system notes). A comment's history event is shown as the comment itself.
 */
export const timelineOf = (
  history: HistoryEvent[],
  comments: Comment[],
  messages: Message[],
  alertNames: ReadonlyMap<string, string> = new Map(),
): Entry[] => {
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
          text: describe(event, alertNames),
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
          text: inWords(message.text),
        }),
      ),
  ].sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id));
};

export const Timeline = ({ entries }: { entries: Entry[] }) => (
  <ol class="timeline">
    {entries.map((entry) => (
      <li key={entry.id} class={`timeline-${entry.kind}`}>
        <div class="timeline-head">
          {entry.kind === 'comment' && <span class="timeline-kind">comment</span>} <span>{entry.who}</span>{' '}
          <time dateTime={entry.at}>{when(entry.at)}</time>
        </div>
        <p class="timeline-text">{entry.text}</p>
      </li>
    ))}
  </ol>
);
