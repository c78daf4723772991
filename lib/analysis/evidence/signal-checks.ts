import type { EvidenceItem, EvidenceKind, ServiceContext } from '#lib/ports/reasoner/evidence.ts';
import { type SignalSummary, signalTime } from '#lib/signals/signal.ts';
import { clockInWords, instantsInWords } from '#lib/contract/time-words.ts';
import { minutesLate } from './lateness.ts';
import { sameService } from './service-names.ts';

const SEVERITY_STRENGTH: Record<string, number> = { HIGH: 0.7, MEDIUM: 0.5, LOW: 0.3 };

/** At most this many signals per kind: the earliest say where it began; later repeats add nothing. */
const PER_KIND = 8;

export interface SignalWithService extends SignalSummary {
  /** The signal's service by name (its `serviceId` resolved through the service map). */
  service: string | null;
}

/** ` (delivered 40 min late)`, for a signal whose first event arrived well after its sender says it fired. */
const lateness = (firedAt: string, receivedAt: string): string => {
  const minutes = minutesLate(firedAt, receivedAt);
  return minutes === null ? '' : ` (delivered ${minutes} min late)`;
};

/**
 * Placed at when it fired (`signalTime`), with its arrival (`firstSeenAt`) kept beside it (docs/analysis.md, "Time");
 * its summary tells that time in words, in the workspace's zone.
 */
const signalItem = (
  signal: SignalWithService,
  kind: EvidenceKind,
  strength: number,
  timeZone: string,
): EvidenceItem => {
  const at = signalTime(signal);
  return {
    id: `signal:${signal.id}`,
    kind,
    check: kind === 'UPSTREAM_SIGNAL' ? 'upstream-services' : 'incident-signals',
    service: signal.service,
    at,
    summary: `${signal.severity} signal "${instantsInWords(signal.name, timeZone)}" from ${signal.source}${signal.service ? ` on ${signal.service}` : ''}, fired at ${clockInWords(at, timeZone)}${lateness(at, signal.firstSeenAt)}${signal.occurrences > 1 ? `, ${signal.occurrences} occurrences` : ''}`,
    strength,
    details: {
      name: signal.name,
      source: signal.source,
      severity: signal.severity,
      status: signal.status,
      occurrences: signal.occurrences,
      receivedAt: signal.firstSeenAt,
    },
  };
};

export const byFiringTime = (a: SignalSummary, b: SignalSummary) => signalTime(a).localeCompare(signalTime(b));

/**
 * The incident's own signals (linked by correlation, or on its service within the window), the signals
 * of the services depending on it, and those of its upstreams (the upstream-services check), each the
 * earliest to fire first. Suppressed signals were judged noise by a person and are left out.
 */
export const classifySignals = (
  linked: readonly SignalWithService[],
  inWindow: readonly SignalWithService[],
  service: ServiceContext | null,
  timeZone: string,
): EvidenceItem[] => {
  // A signal is one item, under the first kind that claims it: the one correlation opened the incident from is
  // both linked and in its service's window, and counting it twice would make one alert two.
  const seen = new Set<string>();
  const pick = (signals: SignalWithService[], kind: EvidenceKind, weight: number): EvidenceItem[] => {
    const fresh = new Map<string, SignalWithService>();
    for (const signal of signals) {
      if (signal.status !== 'SUPPRESSED' && !seen.has(signal.id)) fresh.set(signal.id, signal);
    }
    return [...fresh.values()]
      .sort(byFiringTime)
      .slice(0, PER_KIND)
      .map((signal) => {
        seen.add(signal.id);
        const strength = Math.round((SEVERITY_STRENGTH[signal.severity] ?? 0.3) * weight * 100) / 100;
        return signalItem(signal, kind, strength, timeZone);
      });
  };
  const on = (names: readonly string[]) =>
    inWindow.filter((signal) => names.some((name) => sameService(signal.service, name)));
  const own = pick([...linked, ...(service ? on([service.name]) : [])], 'SIGNAL', 1);
  const upstream = service ? pick(on(service.upstreams), 'UPSTREAM_SIGNAL', 1) : [];
  const dependent = service ? pick(on(service.dependents), 'DEPENDENT_SIGNAL', 0.5) : [];
  return [...own, ...upstream, ...dependent];
};
