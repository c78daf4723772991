import { ApiError, get } from '../api.ts';
import type { Comment, Execution, HistoryEvent, IncidentSignal, Message, Notification } from '../model.ts';
import { AlertFacts } from './alert-brief.tsx';
import { SignalRow } from '../signal-row.tsx';
import { Badge, Section, when, word } from '../ui.tsx';
import { Timeline, timelineOf } from './timeline.tsx';

/** What the page shows of an incident besides its facts; a part the caller may not read, or that is absent, is empty. */
export interface Details {
  comments: Comment[];
  messages: Message[];
  history: HistoryEvent[];
  signals: IncidentSignal[];
  executions: Execution[];
  notifications: Notification[];
}

const orEmpty = async <T,>(load: Promise<{ data: T }>): Promise<T | []> => {
  try {
    return (await load).data;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return [];
    throw error;
  }
};

export const loadDetails = async (id: string): Promise<Details> => {
  const ticket = encodeURIComponent(id);
  const [comments, messages, history, signals, executions, notifications] = await Promise.all([
    orEmpty(get<Comment[]>(`/incident-ticket/comment/${ticket}`)),
    orEmpty(get<Message[]>(`/incident-ticket/message/${ticket}`)),
    orEmpty(get<HistoryEvent[]>(`/tickets/history?ticketId=${ticket}&limit=100`)),
    orEmpty(get<IncidentSignal[]>(`/incident-ticket/${ticket}/signals`)),
    orEmpty(get<Execution[]>(`/playbooks/executions/list?incidentId=${ticket}&limit=100`)),
    orEmpty(get<Notification[]>(`/incident-ticket/${ticket}/notifications`)),
  ]);
  return { comments, messages, history, signals, executions, notifications };
};

export const TimelineSection = ({ details }: { details: Details }) => (
  <Section title="Timeline">
    <Timeline
      entries={timelineOf(
        details.history,
        details.comments,
        details.messages,
        new Map(details.signals.map((signal) => [signal.id, signal.name])),
      )}
    />
  </Section>
);

export const SignalsSection = ({ signals }: { signals: IncidentSignal[] }) => (
  <Section title="Signals">
    {signals.length === 0 ? (
      <p>No signals are linked.</p>
    ) : (
      <ul class="rows">
        {signals.map((signal) => (
          <SignalRow key={signal.id} signal={signal} at="triggeredAt">
            <AlertFacts signal={signal} />
          </SignalRow>
        ))}
      </ul>
    )}
  </Section>
);

export const PlaybookSection = ({ executions }: { executions: Execution[] }) => (
  <Section title="Playbook">
    {executions.length === 0 ? (
      <p>No playbook is running for this incident.</p>
    ) : (
      executions.map((execution) => (
        <div key={execution.executionId} class="execution">
          <h3>
            {execution.playbookTitle} <Badge kind="status" value={execution.status} />
          </h3>
          <ol class="steps">
            {execution.steps.map((step) => (
              <li key={step.index} class={`step-${step.status.toLowerCase()}`}>
                <span>{step.title}</span> <Badge kind="status" value={step.status} />
                {step.note && <span class="note"> {step.note}</span>}
              </li>
            ))}
          </ol>
        </div>
      ))
    )}
  </Section>
);

export const NotificationsSection = ({ notifications }: { notifications: Notification[] }) => (
  <Section title="Notifications">
    {notifications.length === 0 ? (
      <p>No notifications were sent.</p>
    ) : (
      <ul class="rows">
        {notifications.map((sent) => (
          <li key={`${sent.event}-${sent.channel}-${sent.recipient}`} class="row">
            <span class="row-title">
              {word(sent.event)} by {sent.channel} to {sent.recipient}
            </span>
            <span class="row-meta">
              <Badge kind="status" value={sent.status} />
              <span>{when(sent.eventAt)}</span>
            </span>
          </li>
        ))}
      </ul>
    )}
  </Section>
);
