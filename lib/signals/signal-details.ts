import type { Signal } from './signal.ts';

/** What a report shows of an alert behind an incident: its labels and the runbook to follow. */
export interface ReportSignal {
  id: string;
  name: string;
  source: string;
  severity: string;
  status: string;
  triggeredAt: string;
  /** The sender's own words for the alert: an Alertmanager summary, a webhook message. */
  summary?: string;
  labels: [name: string, value: string][];
  /** Alertmanager's annotations (summary, description, runbook and any other), as sent. */
  annotations?: [name: string, value: string][];
  runbookUrl?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** Only web addresses become links: a `javascript:` or `file:` runbook from a sender is not one. */
const webAddress = (value: unknown): string | undefined => {
  const address = text(value);
  if (address === undefined) return undefined;
  try {
    const { protocol } = new URL(address);
    return protocol === 'https:' || protocol === 'http:' ? address : undefined;
  } catch {
    return undefined;
  }
};

/** Where senders put a runbook: Alertmanager's `runbook_url` annotation, or the same name in webhook metadata. */
const RUNBOOK_KEYS = ['runbook_url', 'runbookUrl', 'runbook'] as const;

/**
 * What is not a label of a generic webhook's metadata: the text shown as the summary, identity and
 * bookkeeping the service added (`origin`, `originalSeverity`), and the runbook, shown as a link.
 */
const NOT_LABELS = new Set([
  'message',
  'summary',
  'description',
  'fingerprint',
  'origin',
  'originalSeverity',
  ...RUNBOOK_KEYS,
]);

const scalar = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;

const entriesOf = (record: Record<string, unknown>, skip: ReadonlySet<string> = new Set()): [string, string][] =>
  Object.entries(record).flatMap(([name, value]): [string, string][] => {
    const shown = scalar(value);
    return shown === undefined || skip.has(name) ? [] : [[name, shown]];
  });

/**
 * Labels: Alertmanager's `labels` (and any sender's `labels` object) as sent; without one, the scalar
 * entries of a generic webhook's metadata, which is where such senders put theirs. Sorted by name, as
 * Prometheus prints a label set.
 */
const labelsOf = (metadata: Record<string, unknown>): [string, string][] => {
  const labels = isRecord(metadata.labels) ? entriesOf(metadata.labels) : entriesOf(metadata, NOT_LABELS);
  return labels.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
};

const runbookOf = (metadata: Record<string, unknown>): string | undefined => {
  const annotations = isRecord(metadata.annotations) ? metadata.annotations : {};
  for (const key of RUNBOOK_KEYS) {
    const address = webAddress(annotations[key]) ?? webAddress(metadata[key]);
    if (address !== undefined) return address;
  }
  return undefined;
};

/** Imports types only: the console bundles it (.dependency-cruiser.cjs, console-word-lists-stay-pure). */
export const signalDetails = (signal: Signal): ReportSignal => {
  const { metadata } = signal;
  const summary = text(metadata.summary) ?? text(metadata.message) ?? text(metadata.description);
  const runbookUrl = runbookOf(metadata);
  return {
    id: signal.id,
    name: signal.name,
    source: signal.source,
    severity: signal.severity,
    status: signal.status,
    triggeredAt: signal.triggeredAt,
    ...(summary !== undefined && { summary }),
    labels: labelsOf(metadata),
    annotations: isRecord(metadata.annotations) ? entriesOf(metadata.annotations) : [],
    ...(runbookUrl !== undefined && { runbookUrl }),
  };
};
