import type { Incident } from '#lib/incidents/incident.ts';
import { signalLinkRepository } from '#lib/incidents/signal-link-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { signalDetails } from '#lib/signals/signal-details.ts';
import { signalIncidentRepository } from '#lib/signals/signal-incident-repository.ts';
import { signalTime, type Signal } from '#lib/signals/signal.ts';
import { workspaceTimezone } from '#lib/workspaces/workspace-timezone.ts';

/** What a page says beside the incident's own fields: what is broken, since when, how many alerts, the runbook. */
export interface PageFacts {
  /** The alert's own words: its summary (Alertmanager `annotations.summary`, a webhook's message). */
  what?: string | undefined;
  /** Its longer description, when it says more than the summary. */
  description?: string | undefined;
  alertCount: number;
  /** The earliest alert's time, else the incident's creation. */
  since: string;
  runbookUrl?: string | undefined;
  timeZone: string;
}

/** An alert storm's incident has hundreds of signals: the first few say what is broken. */
const SIGNALS_READ = 25;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * The facts of the earliest alerts of the incident (a signal correlation linked; a member's own incident has
 * none, and its description says what is broken).
 */
export const pageFacts = async (scope: Scope, incident: Incident): Promise<PageFacts> => {
  const { ports, workspaceId } = scope;
  const [links, timeZone] = await Promise.all([
    signalLinkRepository(ports.table, workspaceId).listSignalLinks(incident.id),
    workspaceTimezone(scope),
  ]);
  const signals: Signal[] = (
    await signalIncidentRepository(ports.table, workspaceId).readSignals(
      links.slice(0, SIGNALS_READ).map(({ signalId }) => signalId),
    )
  ).sort((a, b) => signalTime(a).localeCompare(signalTime(b)));
  const details = signals.map(signalDetails);
  const what = details.find((detail) => detail.summary)?.summary;
  const description =
    signals.map((signal) => text(signal.metadata.description)).find((value) => value !== undefined) ??
    (signals.length === 0 ? text(incident.description) : undefined);
  const [first] = signals;
  return {
    what,
    description: description === what ? undefined : description,
    alertCount: links.length,
    since: incident.firstSignalAt ?? (first ? signalTime(first) : incident.createdAt),
    runbookUrl: details.find((detail) => detail.runbookUrl)?.runbookUrl,
    timeZone,
  };
};
