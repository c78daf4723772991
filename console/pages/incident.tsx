import { useState } from 'preact/hooks';
import { canWrite, get, type User } from '../api.ts';
import type { Incident } from '../model.ts';
import { Badge, ErrorNote, Link, Section, useLoad, when } from '../ui.tsx';
import { AlertBrief } from './alert-brief.tsx';
import { AnalysisSection } from './analysis.tsx';
import { Actions, CommentForm } from './incident-actions.tsx';
import {
  loadDetails,
  NotificationsSection,
  PlaybookSection,
  SignalsSection,
  TimelineSection,
} from './incident-details.tsx';

const Facts = ({ incident }: { incident: Incident }) => (
  <dl class="facts">
    <dt>Status</dt>
    <dd>
      <Badge kind="status" value={incident.status} />
    </dd>
    <dt>Priority</dt>
    <dd>
      <Badge kind="priority" value={incident.priority} />
    </dd>
    <dt>Assignee</dt>
    <dd class="assignee">{incident.assignedToEmail ?? 'nobody'}</dd>
    <dt>Service</dt>
    <dd>{[incident.serviceArea, incident.environment, incident.region].filter(Boolean).join(' · ') || '—'}</dd>
    <dt>Escalation</dt>
    <dd class="escalation-level">level {incident.escalationLevel}</dd>
    <dt>Opened</dt>
    <dd>{when(incident.createdAt)}</dd>
  </dl>
);

/** One incident, the page its notification e-mail links to (docs/console.md). */
export const IncidentPage = ({ id, user }: { id: string; user: User }) => {
  const incident = useLoad(async () => (await get<Incident>(`/incident-ticket/${encodeURIComponent(id)}`)).data, id);
  const details = useLoad(() => loadDetails(id), id);
  const [analysing, setAnalysing] = useState<string>();
  const reload = () => {
    incident.reload();
    details.reload();
  };

  if (incident.error) return <main>{<ErrorNote error={incident.error} />}</main>;
  if (!incident.value) return <main>Loading…</main>;
  const current = incident.value;
  const writer = canWrite(user);
  return (
    <main class="incident">
      <p class="crumbs">
        <Link to="/incidents">Incidents</Link> / {current.id}
      </p>
      <h1>{current.summary}</h1>
      {details.value && <AlertBrief incident={current} signals={details.value.signals} />}
      {current.description && <p class="description">{current.description}</p>}
      <Facts incident={current} />
      {current.impactSummary && <p class="impact">Impact: {current.impactSummary}</p>}
      <Actions incident={current} writer={writer} onChange={reload} onAnalysing={setAnalysing} />
      {writer && <CommentForm id={current.id} onAdded={reload} />}
      <ErrorNote error={details.error} />
      {details.value && (
        <>
          <TimelineSection details={details.value} />
          <SignalsSection signals={details.value.signals} />
        </>
      )}
      <Section title="Analysis">
        <AnalysisSection incidentId={current.id} started={analysing} />
      </Section>
      {details.value && (
        <>
          <PlaybookSection executions={details.value.executions} />
          <NotificationsSection notifications={details.value.notifications} />
        </>
      )}
    </main>
  );
};
