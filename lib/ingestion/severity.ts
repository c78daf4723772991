import type { SignalSeverity } from '#lib/signals/signal-event.ts';
import { lookupTable } from './schema-kit.ts';

const LEVELS = lookupTable<SignalSeverity>({
  critical: 'HIGH',
  page: 'HIGH',
  high: 'HIGH',
  error: 'HIGH',
  warning: 'MEDIUM',
  warn: 'MEDIUM',
  medium: 'MEDIUM',
  low: 'LOW',
  info: 'LOW',
  none: 'LOW',
});

/** The spec's severity for a sender's level word (`critical`, `warning`, `info`...); undefined if unknown. */
export const severityFromLevel = (level: string | null | undefined): SignalSeverity | undefined =>
  level ? LEVELS.get(level.trim().toLowerCase()) : undefined;

/** The spec's severity for a `P1`..`P5` priority (paging and monitoring tools); undefined otherwise. */
export const severityFromPriority = (priority: string | null | undefined): SignalSeverity | undefined => {
  const rank = /^p([1-5])$/i.exec(priority?.trim() ?? '')?.[1];
  if (!rank) return undefined;
  return rank <= '2' ? 'HIGH' : rank === '3' ? 'MEDIUM' : 'LOW';
};
