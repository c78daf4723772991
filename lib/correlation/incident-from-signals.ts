import { clockInWords } from '#lib/contract/time-words.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { createIncidentBody, type CreateIncidentInput } from '#lib/incidents/schemas.ts';
import { findServiceByIdOrName } from '#lib/service-map/service-graph.ts';
import { isServiceId } from '#lib/service-map/service.ts';
import { type Signal, signalTime } from '#lib/signals/signal.ts';
import { workspaceTimezone } from '#lib/workspaces/workspace-timezone.ts';
import { signalEnvironment, type CorrelationRule } from './correlation-rule.ts';

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

const distinct = (values: readonly (string | null | undefined)[]): string[] => [
  ...new Set(values.filter((value): value is string => typeof value === 'string' && value.trim() !== '')),
];

const metadataText = (signal: Signal, field: string): string | undefined => {
  const value = signal.metadata[field];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

/** `[HIGH] CheckoutErrors (metrics-alerts, checkout), 04:10 on 28 November 2026 (UTC): what its sender says`. */
const signalLine = (signal: Signal, timeZone: string): string => {
  const where = distinct([signal.source, signal.serviceId]).join(', ');
  const detail = metadataText(signal, 'summary') ?? metadataText(signal, 'description');
  return `[${signal.severity}] ${signal.name} (${where}), ${clockInWords(signalTime(signal), timeZone)}${detail ? `: ${detail}` : ''}`;
};

/** One alert is a sentence; several are a list. Times on the workspace's clock, as people read them. */
const descriptionOf = (signals: readonly Signal[], timeZone: string): string =>
  signals.length === 1 && signals[0]
    ? `Opened from an alert: ${signalLine(signals[0], timeZone)}`
    : `Opened from ${signals.length} alerts:\n${signals.map((signal) => `- ${signalLine(signal, timeZone)}`).join('\n')}`;

/** One alert's incident is titled by what its sender says is broken (its summary), else by the alert's name. */
const summaryOf = (signals: readonly Signal[]): string => {
  const services = distinct(signals.map((signal) => signal.serviceId));
  const on = services.length > 0 ? ` on ${services.join(', ')}` : '';
  const [first] = signals;
  if (signals.length === 1 && first) return `${metadataText(first, 'summary') ?? first.name}${on}`;
  return `${signals.length} signals${on}: ${distinct(signals.map((signal) => signal.name)).join(', ')}`;
};

/**
 * The incident a rule opens for the signals that reached its threshold, oldest first: the summary names
 * them and their services, `source` and `serviceArea` list their sources and services, `environment`
 * is the first one found (`metadata.environment` or an `environment`/`env` label), `description` lists
 * the signals and `techDescription` says which rule opened it and why.
 */
const incidentOf = (
  rule: CorrelationRule,
  groupKey: string,
  signals: readonly Signal[],
  timeZone: string,
): CreateIncidentInput => {
  const ordered = [...signals].sort((a, b) => signalTime(a).localeCompare(signalTime(b)) || a.id.localeCompare(b.id));
  const environment = ordered.map(signalEnvironment).find((value) => value !== undefined);
  const threshold =
    rule.minSignals === 1 ? 'a matching signal' : `${rule.minSignals} signals within ${rule.windowMinutes} minutes`;
  return createIncidentBody.parse({
    summary: clip(summaryOf(ordered), 300),
    priority: rule.action.priority,
    source: clip(distinct(ordered.map((signal) => signal.source)).join(', '), 200),
    serviceArea: clip(distinct(ordered.map((signal) => signal.serviceId)).join(', '), 200),
    environment: environment && clip(environment, 200),
    description: clip(descriptionOf(ordered, timeZone), 10_000),
    techDescription: clip(
      `Opened by correlation rule "${rule.name}" (${rule.id}) on ${threshold}, group ${groupKey || '(all signals)'}. ` +
        `Signals: ${ordered.map((signal) => signal.id).join(', ')}.`,
      10_000,
    ),
  });
};

/**
 * A `serviceId` that is a service's id (a code host's signal, given its repository's owner at ingestion) by
 * that service's name, as people read and filter a `serviceArea`; a sender's own name for a service stays as
 * it is. One read per such id, so an alert storm's signals, which name their services, cost nothing more.
 */
const withServiceNames = async (scope: Scope, signals: readonly Signal[]): Promise<Signal[]> => {
  const ids = distinct(signals.map((signal) => signal.serviceId)).filter(isServiceId);
  const services = await Promise.all(ids.map((id) => findServiceByIdOrName(scope, id)));
  const names = new Map(ids.flatMap((id, index) => (services[index] ? [[id, services[index].name] as const] : [])));
  return signals.map((signal) => {
    const name = signal.serviceId === null ? undefined : names.get(signal.serviceId);
    return name === undefined ? signal : { ...signal, serviceId: name };
  });
};

/** `incidentOf` the signals, their services named as the service map names them. */
export const incidentFromSignals = async (
  scope: Scope,
  rule: CorrelationRule,
  groupKey: string,
  signals: readonly Signal[],
): Promise<CreateIncidentInput> => {
  const [named, timeZone] = await Promise.all([withServiceNames(scope, signals), workspaceTimezone(scope)]);
  return incidentOf(rule, groupKey, named, timeZone);
};
