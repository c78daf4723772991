import type { ComponentChildren } from 'preact';
import type { Signal } from './model.ts';
import { Badge, when } from './ui.tsx';

/**
 * One signal as a row of a list, on the signals page and an incident's: its name, status, severity, source and
 * time; `meta` adds to the facts (occurrences, its incident), `children` follow them (the moves).
 */
export const SignalRow = ({
  signal,
  at,
  meta,
  children,
}: {
  signal: Signal;
  /** Which of its times the list is about: when it was last seen, or when it was first triggered. */
  at: 'lastSeenAt' | 'triggeredAt';
  meta?: ComponentChildren;
  children?: ComponentChildren;
}) => (
  <li class="row">
    <span class="row-title">{signal.name}</span>
    <span class="row-meta">
      <Badge kind="status" value={signal.status} />
      <Badge kind="priority" value={signal.severity} />
      <span>{signal.source}</span>
      <span>{when(signal[at])}</span>
      {meta}
    </span>
    {children}
  </li>
);
