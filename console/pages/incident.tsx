import { useState } from 'preact/hooks';
import { api, ApiError, canWrite, download, get, type User } from '../api.ts';
import type {
  Analysis,
  Comment,
  Execution,
  HistoryEvent,
  Incident,
  Member,
  Message,
  Notification,
  Signal,
} from '../model.ts';
import { Badge, ErrorNote, Link, Section, useAction, useLoad, when } from '../ui.tsx';
import { Timeline, timelineOf } from './timeline.tsx';

/** What the page shows besides the incident; a part the caller may not read, or that is absent, is left empty. */
interface Details {
  comments: Comment[];
  messages: Message[];
  history: HistoryEvent[];
  signals: Signal[];
  analysis: Analysis | null;
  executions: Execution[];
  notifications: Notification[];
}

const orEmpty = async <T,>(load: Promise<{ data: T }>, empty: T): Promise<T> => {
  try {
    return (await load).data;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return empty;
    throw error;
  }
};

const loadDetails = async (id: string): Promise<Details> => {
  const ticket = encodeURIComponent(id);
  const [comments, messages, history, signals, analysis, executions, notifications] = await Promise.all([
    orEmpty(get<Comment[]>(`/incident-ticket/comment/${ticket}`), []),
    orEmpty(get<Message[]>(`/incident-ticket/message/${ticket}`), []),
    orEmpty(get<HistoryEvent[]>(`/tickets/history?ticketId=${ticket}&limit=100`), []),
    orEmpty(get<Signal[]>(`/incident-ticket/${ticket}/signals`), []),
    orEmpty<Analysis | null>(get<Analysis>(`/assistant/analysis/${ticket}`), null),
    // The executions list has no incident filter: the latest hundred, narrowed here.
    orEmpty(get<Execution[]>('/playbooks/executions/list?limit=100'), []),
    orEmpty(get<Notification[]>(`/incident-ticket/${ticket}/notifications`), []),
  ]);
  return {
    comments,
    messages,
    history,
    signals,
    analysis,
    executions: executions.filter((execution) => execution.incidentId === id),
    notifications,
  };
};

const DONE = new Set(['RESOLVED', 'CLOSED']);

export const IncidentPage = ({ id, user }: { id: string; user: User }) => {
  const incident = useLoad(async () => (await get<Incident>(`/incident-ticket/${encodeURIComponent(id)}`)).data, id);
  const details = useLoad(() => loadDetails(id), id);
  const reload = () => {
    incident.reload();
    details.reload();
  };

  if (incident.error) return <main>{<ErrorNote error={incident.error} />}</main>;
  if (!incident.value) return <main>Loading…</main>;
  const current = incident.value;
  return (
    <main class="incident">
      <p class="crumbs">
        <Link to="/incidents">Incidents</Link> / {current.id}
      </p>
      <h1>{current.summary}</h1>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <Badge kind="status" value={current.status} />
        </dd>
        <dt>Priority</dt>
        <dd>
          <Badge kind="priority" value={current.priority} />
        </dd>
        <dt>Assignee</dt>
        <dd class="assignee">{current.assignedToEmail ?? 'nobody'}</dd>
        <dt>Service</dt>
        <dd>{[current.serviceArea, current.environment, current.region].filter(Boolean).join(' · ') || '—'}</dd>
        <dt>Opened</dt>
        <dd>{when(current.createdAt)}</dd>
      </dl>
      {current.description && <p>{current.description}</p>}
      {current.impactSummary && <p class="impact">Impact: {current.impactSummary}</p>}
      <Actions incident={current} user={user} onChange={reload} />
      {canWrite(user) && <CommentForm id={current.id} onAdded={reload} />}
      <ErrorNote error={details.error} />
      {details.value && <DetailSections details={details.value} />}
    </main>
  );
};

const Actions = ({ incident, user, onChange }: { incident: Incident; user: User; onChange: () => void }) => {
  const action = useAction();
  const writer = canWrite(user);
  const ticket = encodeURIComponent(incident.id);
  const act = (call: () => Promise<unknown>) => void action.run(call).then((done) => done && onChange());
  const exportPdf = () =>
    void action.run(async () => {
      const pdf = await download('/incident-ticket/generate-pdf', { incidentId: incident.id }, 'application/pdf');
      const link = document.createElement('a');
      link.href = URL.createObjectURL(pdf);
      link.download = `${incident.id}.pdf`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    });
  return (
    <div class="actions">
      {writer && incident.status === 'OPEN' && (
        <button
          type="button"
          class="primary"
          disabled={action.busy}
          onClick={() => act(() => api('PUT', `/incident-ticket/${ticket}`, { status: 'ACKNOWLEDGED' }))}
        >
          Acknowledge
        </button>
      )}
      {writer && !DONE.has(incident.status) && (
        <button
          type="button"
          disabled={action.busy}
          onClick={() => act(() => api('POST', `/incident-ticket/resolve/${ticket}`, {}))}
        >
          Resolve
        </button>
      )}
      {writer && <AssignForm incident={incident} onAssigned={onChange} />}
      {writer && (
        <button
          type="button"
          disabled={action.busy}
          onClick={() => act(() => api('POST', '/assistant/analyse', { incidentId: incident.id }))}
        >
          Analyse
        </button>
      )}
      <button type="button" disabled={action.busy} onClick={exportPdf}>
        Export PDF
      </button>
      <ErrorNote error={action.error} />
    </div>
  );
};

const AssignForm = ({ incident, onAssigned }: { incident: Incident; onAssigned: () => void }) => {
  const members = useLoad(async () => (await get<Member[]>('/business/get_members')).data, 'members');
  const action = useAction();
  const [email, setEmail] = useState(incident.assignedToEmail ?? '');
  const assign = (event: Event) => {
    event.preventDefault();
    void action
      .run(() => api('PUT', `/incident-ticket/${encodeURIComponent(incident.id)}`, { assignedToEmail: email }))
      .then((done) => done && onAssigned());
  };
  return (
    <form class="inline" onSubmit={assign}>
      <label>
        Assign to
        <select name="assignee" value={email} onChange={(e) => setEmail(e.currentTarget.value)}>
          <option value="">Choose…</option>
          {(members.value ?? []).map((member) => (
            <option key={member.id} value={member.email}>
              {`${member.firstName} ${member.lastName}`.trim() || member.email}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={action.busy || !email || email === incident.assignedToEmail}>
        Assign
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
};

const CommentForm = ({ id, onAdded }: { id: string; onAdded: () => void }) => {
  const [content, setContent] = useState('');
  const action = useAction();
  const add = (event: Event) => {
    event.preventDefault();
    void action
      .run(() => api('POST', '/incident-ticket/comment', { ticketId: id, content }))
      .then((done) => {
        if (!done) return;
        setContent('');
        onAdded();
      });
  };
  return (
    <form class="stack comment-form" onSubmit={add}>
      <label>
        Comment
        <textarea name="comment" rows={3} required value={content} onInput={(e) => setContent(e.currentTarget.value)} />
      </label>
      <ErrorNote error={action.error} />
      <button type="submit" disabled={action.busy || !content.trim()}>
        Add comment
      </button>
    </form>
  );
};

const DetailSections = ({ details }: { details: Details }) => (
  <>
    <Section title="Timeline">
      <Timeline entries={timelineOf(details.history, details.comments, details.messages)} />
    </Section>
    <Section title="Signals">
      {details.signals.length === 0 ? (
        <p>No signals are linked.</p>
      ) : (
        <ul class="rows">
          {details.signals.map((signal) => (
            <li key={signal.id} class="row">
              <span class="row-title">{signal.name}</span>
              <span class="row-meta">
                <Badge kind="status" value={signal.status} />
                <Badge kind="priority" value={signal.severity} />
                <span>{signal.source}</span>
                <span>{when(signal.triggeredAt)}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
    <Section title="Analysis">
      <AnalysisView analysis={details.analysis} />
    </Section>
    <Section title="Playbook">
      {details.executions.length === 0 ? (
        <p>No playbook is running for this incident.</p>
      ) : (
        details.executions.map((execution) => (
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
    <Section title="Notifications">
      {details.notifications.length === 0 ? (
        <p>No notifications were sent.</p>
      ) : (
        <ul class="rows">
          {details.notifications.map((sent) => (
            <li key={`${sent.event}-${sent.channel}-${sent.recipient}`} class="row">
              <span class="row-title">
                {sent.event.toLowerCase()} by {sent.channel} to {sent.recipient}
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
  </>
);

const AnalysisView = ({ analysis }: { analysis: Analysis | null }) => {
  if (!analysis) return <p>No completed analysis yet.</p>;
  return (
    <div class="analysis">
      <p>
        <strong>Hypothesis:</strong> {analysis.hypothesis}
      </p>
      <p>
        <strong>Root cause:</strong> {analysis.rootCause}
      </p>
      {analysis.impactAssessment && (
        <p>
          <strong>Impact:</strong> {analysis.impactAssessment}
        </p>
      )}
      {analysis.confidence !== null && <p>Confidence {Math.round(analysis.confidence * 100)}%</p>}
      {analysis.remediationOptions.length > 0 && (
        <>
          <h3>Remediation</h3>
          <ol>
            {analysis.remediationOptions.map((option) => (
              <li key={option}>{option}</li>
            ))}
          </ol>
        </>
      )}
      <h3>Evidence</h3>
      {analysis.evidence.length === 0 ? (
        <p>The analysis found no evidence.</p>
      ) : (
        <ul class="evidence">
          {analysis.evidence.map((item) => (
            <li key={item.id}>
              <span class="badge">{item.kind.replaceAll('_', ' ')}</span> {item.summary}
              {item.service && <span class="note"> ({item.service})</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
