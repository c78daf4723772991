import type { Scope } from '#lib/identity/scope.ts';
import type { Incident } from '#lib/incidents/incident.ts';
import { incidentRepository } from '#lib/incidents/incident-repository.ts';
import { listIncidentSignals } from '#lib/incidents/incident-signals.ts';
import type { CheckRun, Evidence, EvidenceCheck, EvidenceItem, IncidentContext } from '#lib/ports/reasoner/evidence.ts';
import { signalWindowRepository } from '#lib/signals/signal-window-repository.ts';
import { similarIncidentsCheck, upstreamIncidentsCheck } from './incident-checks.ts';
import { learnedPatternsCheck } from './pattern-check.ts';
import { CHANGE_WINDOW_MINUTES, recentChangesCheck } from './recent-changes-check.ts';
import { serviceContextOf, serviceNameOf } from './service-context.ts';
import { sameService } from './service-names.ts';
import { loadServiceGraph } from '#lib/service-map/service-graph.ts';
import { byFiringTime, classifySignals, type SignalWithService } from './signal-checks.ts';
import { signalTime } from '#lib/signals/signal.ts';
import { workspaceTimezone } from '#lib/workspaces/workspace-timezone.ts';

/** Signals count when they fired from this long before the incident began to this long after. */
const SIGNALS_BEFORE_MINUTES = 60;
const SIGNALS_AFTER_MINUTES = 15;
/**
 * A signal is looked for among those delivered up to this long after the window: one that fired in it arrives
 * no earlier than it fired, and a sender that is later than this is down rather than slow (docs/decisions.md).
 */
const LATE_SIGNAL_MINUTES = 120;
/** The most recent incidents compared with this one (similar ones, open upstream ones). */
const RECENT_INCIDENTS = 100;
/** Deploys of an upstream weigh less than deploys of the incident's own service. */
const UPSTREAM_CHANGE_WEIGHT = 0.7;

const MINUTE = 60_000;

/**
 * A change is a suspect when it happened within the change window before the incident began, or before the
 * first failure of its own service (an upstream that failed before the incident did): the cause chain asks,
 * at each service it walks, what changed there just before it failed (docs/analysis.md, "Cause chains").
 */
const explainsAFailure =
  (incident: IncidentContext, failures: EvidenceItem[]) =>
  (change: EvidenceItem): boolean => {
    const firstFailure = failures
      .filter((failure) => sameService(failure.service, change.service) && failure.at)
      .map((failure) => failure.at as string)
      .sort()[0];
    const until = firstFailure && firstFailure < incident.startedAt ? firstFailure : incident.startedAt;
    return !!change.at && Date.parse(until) - Date.parse(change.at) <= CHANGE_WINDOW_MINUTES * MINUTE;
  };

const text = (value: string | undefined): string | null => (value?.trim() ? value : null);

/**
 * Everything the workspace knows that bears on the incident's cause, as evidence items with stable ids
 * (docs/analysis.md, "Evidence checks"): recent deploys and pipeline runs, the incident's signals and
 * those around it, upstream services in trouble (through the service map), similar past incidents and
 * learned patterns. Reads only; every item's id names the record it came from.
 */
export const gatherEvidence = async (scope: Scope, incident: Incident): Promise<Evidence> => {
  const { ports, workspaceId } = scope;
  const [graph, timezone] = await Promise.all([loadServiceGraph(scope), workspaceTimezone(scope)]);
  const linked: SignalWithService[] = (await listIncidentSignals(scope, incident.id)).map((signal) => ({
    ...signal,
    service: serviceNameOf(graph, signal.serviceId),
  }));
  // The incident began when its first signal fired, however late that signal was delivered.
  const firstLinked = [...linked].sort(byFiringTime)[0];
  const firstFired = firstLinked && signalTime(firstLinked);
  const startedAt = firstFired && firstFired < incident.createdAt ? firstFired : incident.createdAt;
  const context: IncidentContext = {
    id: incident.id,
    summary: incident.summary,
    description: text(incident.description),
    impactSummary: text(incident.impactSummary),
    blastRadius: text(incident.blastRadius),
    priority: incident.priority,
    status: incident.status,
    environment: text(incident.environment),
    service: text(incident.serviceArea) ?? firstLinked?.service ?? null,
    startedAt,
    createdAt: incident.createdAt,
    resolvedAt: incident.resolvedAt ?? null,
  };
  const service = serviceContextOf(graph, context.service);
  const start = Date.parse(startedAt);
  const windowFrom = start - SIGNALS_BEFORE_MINUTES * MINUTE;
  const windowTo = start + SIGNALS_AFTER_MINUTES * MINUTE;
  const firedInWindow = (signal: SignalWithService) => {
    const at = Date.parse(signalTime(signal));
    return at >= windowFrom && at <= windowTo;
  };
  // A service the map lacks has no repository of its own: the repository named like it is its.
  const repositoryOf = (name: string) => ({ name, repository: graph.find(name)?.repository ?? null });

  const [changes, inWindow, recent, patterns] = await Promise.all([
    service
      ? recentChangesCheck(
          scope,
          context,
          [
            { ...repositoryOf(service.name), weight: 1 },
            ...service.upstreams.map((name) => ({ ...repositoryOf(name), weight: UPSTREAM_CHANGE_WEIGHT })),
          ],
          CHANGE_WINDOW_MINUTES + SIGNALS_BEFORE_MINUTES,
        )
      : Promise.resolve([]),
    signalWindowRepository(ports.table, workspaceId).alertsReceivedBetween(
      new Date(windowFrom),
      new Date(windowTo + LATE_SIGNAL_MINUTES * MINUTE),
    ),
    incidentRepository(ports.table, workspaceId).queryIncidents({}, { page: 1, limit: RECENT_INCIDENTS }),
    learnedPatternsCheck(scope, context, service),
  ]);
  const signals = classifySignals(
    linked,
    inWindow.map((signal) => ({ ...signal, service: serviceNameOf(graph, signal.serviceId) })).filter(firedInWindow),
    service,
    timezone,
  );
  const upstreamIncidents = upstreamIncidentsCheck(recent.items, context, service, timezone);
  const similar = await similarIncidentsCheck(scope, recent.items, context, timezone);
  const suspects = changes.filter(explainsAFailure(context, [...signals, ...upstreamIncidents]));

  const items = [...suspects, ...signals, ...upstreamIncidents, ...similar, ...patterns];
  const noService = context.service ? null : 'the incident names no service and has no signal naming one';
  const noMap =
    service && service.upstreams.length + service.dependents.length === 0
      ? `the service map shows no dependency of ${service.name}`
      : null;
  const run = (check: EvidenceCheck, note: string | null): CheckRun => {
    const found = items.filter((item: EvidenceItem) => item.check === check).length;
    return { check, found, note: found > 0 ? null : note };
  };
  return {
    incident: context,
    service,
    items,
    checks: [
      run(
        'recent-changes',
        noService ?? `no deploy or pipeline run of ${service?.name} or its upstreams in the window`,
      ),
      run('incident-signals', 'no signal linked to the incident or on its services in the window'),
      run('upstream-services', noService ?? noMap ?? 'no upstream service had a signal or an open incident'),
      run('similar-incidents', 'no earlier incident is similar enough'),
      run('learned-patterns', noService ?? 'no learned pattern concerns these services'),
    ],
    gatheredAt: ports.clock.now().toISOString(),
    timezone,
  };
};
