import { useState } from 'preact/hooks';
import { isDone } from '#lib/incidents/incident.ts';
import { api, download } from '../api.ts';
import { ApiForm, Field } from '../form.tsx';
import type { Incident, Member } from '../model.ts';
import { ErrorNote, useAction, useLoad } from '../ui.tsx';

const savePdf = async (incidentId: string): Promise<void> => {
  const pdf = await download('/incident-ticket/generate-pdf', { incidentId }, 'application/pdf');
  const link = document.createElement('a');
  link.href = URL.createObjectURL(pdf);
  link.download = `${incidentId}.pdf`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
};

/**
 * The incident's buttons: for a role that may write, acknowledge, escalate now (page the next level of its
 * escalation, docs/on-call.md), resolve, assign and analyse; PDF export
 * for every role. `onAnalysing` gets the id of the analysis started, which the page then follows.
 */
export const Actions = ({
  incident,
  writer,
  onChange,
  onAnalysing,
}: {
  incident: Incident;
  writer: boolean;
  onChange: () => void;
  onAnalysing: (analysisId: string) => void;
}) => {
  const action = useAction();
  const ticket = encodeURIComponent(incident.id);
  const act = (call: () => Promise<unknown>) => void action.run(call).then((done) => done && onChange());
  const analyse = () =>
    void action.run(async () => {
      const started = await api<{ analysisId: string }>('POST', '/assistant/analyse', { incidentId: incident.id });
      onAnalysing(started.data.analysisId);
    });
  const button = (label: string, run: () => void, primary = false) => (
    <button type="button" class={primary ? 'primary' : ''} disabled={action.busy} onClick={run}>
      {label}
    </button>
  );
  return (
    <div class="actions">
      {writer &&
        incident.status === 'OPEN' &&
        button(
          'Acknowledge',
          () => act(() => api('PUT', `/incident-ticket/${ticket}`, { status: 'ACKNOWLEDGED' })),
          true,
        )}
      {writer &&
        !isDone(incident.status) &&
        button('Escalate now', () => act(() => api('POST', `/incident-ticket/${ticket}/escalate`)))}
      {writer && <AssignForm incident={incident} onAssigned={onChange} />}
      {writer && button('Analyse', analyse)}
      {button('Export PDF', () => void action.run(() => savePdf(incident.id)))}
      <ErrorNote error={action.error} />
      {writer && !isDone(incident.status) && <ResolveForm incidentId={incident.id} onResolved={onChange} />}
    </div>
  );
};

/**
 * Resolve is apart from Acknowledge (a mistaken tap ends an incident and tells everyone paged), and asks
 * again, with room for the resolution note the resolve mail carries.
 */
const ResolveForm = ({ incidentId, onResolved }: { incidentId: string; onResolved: () => void }) => {
  const [asking, setAsking] = useState(false);
  const [resolution, setResolution] = useState('');
  const action = useAction();
  if (!asking) {
    return (
      <div class="resolve">
        <button type="button" onClick={() => setAsking(true)}>
          Resolve…
        </button>
      </div>
    );
  }
  const resolve = () =>
    void action
      .run(() =>
        api('POST', `/incident-ticket/resolve/${encodeURIComponent(incidentId)}`, {
          ...(resolution.trim() && { resolution: resolution.trim() }),
        }),
      )
      .then((done) => done && onResolved());
  return (
    <ApiForm
      class="resolve resolve-confirm"
      error={action.error}
      onSubmit={resolve}
      actions={
        <>
          <button type="submit" class="danger" disabled={action.busy}>
            Resolve the incident
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </>
      }
    >
      <p>Resolve {incidentId}? Everyone paged for it is told.</p>
      <Field label="Resolution note (optional)" name="resolution" rows={3} value={resolution} onValue={setResolution} />
    </ApiForm>
  );
};

const AssignForm = ({ incident, onAssigned }: { incident: Incident; onAssigned: () => void }) => {
  const members = useLoad(async () => (await api<Member[]>('GET', '/business/get_members')).data, 'members');
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
        <select name="assignedToEmail" value={email} onChange={(e) => setEmail(e.currentTarget.value)}>
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

export const CommentForm = ({ id, onAdded }: { id: string; onAdded: () => void }) => {
  const [content, setContent] = useState('');
  const action = useAction();
  const add = () =>
    void action
      .run(() => api('POST', '/incident-ticket/comment', { ticketId: id, content }))
      .then((done) => {
        if (!done) return;
        setContent('');
        onAdded();
      });
  return (
    <ApiForm
      class="comment-form"
      error={action.error}
      onSubmit={add}
      actions={
        <button type="submit" disabled={action.busy || !content.trim()}>
          Add comment
        </button>
      }
    >
      <Field label="Comment" name="content" rows={3} required value={content} onValue={setContent} />
    </ApiForm>
  );
};
