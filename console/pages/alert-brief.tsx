import { signalDetails } from '#lib/signals/signal-details.ts';
import type { Incident, IncidentSignal } from '../model.ts';
import { ago, when } from '../ui.tsx';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * The top of the incident page, what a responder needs first on a phone: what is broken in the alert's own
 * words (its summary and description), since when, how many alerts, and the runbook.
 */
export const AlertBrief = ({ incident, signals }: { incident: Incident; signals: IncidentSignal[] }) => {
  const ordered = [...signals].sort((a, b) => a.triggeredAt.localeCompare(b.triggeredAt));
  const details = ordered.map((signal) => signalDetails(signal));
  const summary = details.find((detail) => detail.summary)?.summary;
  const description = ordered.map((signal) => text(signal.metadata.description)).find(Boolean);
  const runbook = details.find((detail) => detail.runbookUrl)?.runbookUrl;
  const since = incident.firstSignalAt ?? ordered[0]?.triggeredAt ?? incident.createdAt;
  return (
    <section class="brief" aria-label="What is broken">
      {summary && summary !== incident.summary && <p class="brief-what">{summary}</p>}
      {description && description !== summary && <p class="brief-description">{description}</p>}
      <p class="brief-since">
        Since {when(since)} ({ago(since)})
        {signals.length > 0 && ` · ${signals.length === 1 ? '1 alert' : `${signals.length} alerts`}`}
      </p>
      {runbook && (
        <a class="button runbook" href={runbook} target="_blank" rel="noopener noreferrer">
          Open the runbook
        </a>
      )}
    </section>
  );
};

/** An alert's labels and annotations, as its sender sent them. */
export const AlertFacts = ({ signal }: { signal: IncidentSignal }) => {
  const { labels, annotations = [] } = signalDetails(signal);
  if (labels.length === 0 && annotations.length === 0) return null;
  return (
    <details class="alert-facts">
      <summary>Labels and annotations</summary>
      {[
        ['Labels', labels],
        ['Annotations', annotations],
      ].map(([title, entries]) =>
        (entries as [string, string][]).length === 0 ? null : (
          <dl key={title as string} class="facts">
            <dt class="facts-title">{title as string}</dt>
            <dd />
            {(entries as [string, string][]).map(([name, value]) => [
              <dt key={`${name}-name`}>{name}</dt>,
              <dd key={`${name}-value`}>{value}</dd>,
            ])}
          </dl>
        ),
      )}
    </details>
  );
};
