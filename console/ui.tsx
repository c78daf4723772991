import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { agoInWords, clockInWords, instantsInWords } from '#lib/contract/time-words.ts';
import { ApiError } from './api.ts';
import { href, navigate } from './router.ts';
import { workspaceZone } from './workspace.ts';

/** A link the console routes itself, so a tap does not reload the page. */
export const Link = ({
  to,
  children,
  class: className,
}: {
  to: string;
  children: ComponentChildren;
  class?: string;
}) => (
  <a
    class={className}
    href={href(to)}
    onClick={(event) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      navigate(to);
    }}
  >
    {children}
  </a>
);

const errorText = (error: unknown): string => {
  if (error instanceof ApiError) return [error.message, ...error.errors].join(': ');
  return error instanceof Error ? error.message : String(error);
};

export const ErrorNote = ({ error }: { error: unknown }) =>
  error ? (
    <p class="error" role="alert">
      {errorText(error)}
    </p>
  ) : null;

export interface Loaded<T> {
  value: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Loads on mount and whenever `key` changes; `reload` loads again after an action. */
export const useLoad = <T,>(load: () => Promise<T>, key: string): Loaded<T> => {
  const [state, setState] = useState<{ value: T | undefined; error: unknown; loading: boolean }>({
    value: undefined,
    error: undefined,
    loading: true,
  });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (value) => current && setState({ value, error: undefined, loading: false }),
      (error: unknown) => current && setState((previous) => ({ ...previous, error, loading: false })),
    );
    return () => {
      current = false;
    };
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
};

/** Runs an action, keeping its error and whether it is under way, for a button that must not fire twice. */
export const useAction = () => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
};

/** `14:02 on 28 November 2026 (Europe/Berlin)`: on the workspace's clock, as the service's mails say it. */
export const when = (iso: string | null | undefined): string => (iso ? clockInWords(iso, workspaceZone()) : '');

/** `12 minutes ago`, `just now`: how long since, in the words the mails use. */
export const ago = (iso: string): string => agoInWords(iso, new Date());

/** Any ISO-8601 instant inside a text the service wrote (an escalation's deadline), said as `when` says times. */
export const inWords = (text: string): string => instantsInWords(text, workspaceZone());

/** `ACKNOWLEDGED` as `acknowledged`, `PRIORITY_RAISED` as `priority raised`: the service's constants read as words. */
export const word = (value: string | null | undefined): string => (value ?? 'none').replaceAll('_', ' ').toLowerCase();

export const Badge = ({ value, kind }: { value: string | null | undefined; kind: 'status' | 'priority' }) =>
  value ? <span class={`badge ${kind}-${value.toLowerCase()}`}>{value.replaceAll('_', ' ')}</span> : null;

export const Section = ({ title, children }: { title: string; children: ComponentChildren }) => (
  <section class="card">
    <h2>{title}</h2>
    {children}
  </section>
);

export const Pager = ({
  page,
  totalPages,
  onPage,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
}) =>
  totalPages > 1 ? (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Newer
      </button>
      <span>
        Page {page} of {totalPages}
      </span>
      <button type="button" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Older
      </button>
    </nav>
  ) : null;
