import { createHash } from 'node:crypto';
import type { NormalizedEvent } from './normalized-event.ts';

/**
 * A sender's text can be as long as its body (5 MiB), but a signal's name, service and fingerprint are
 * headline fields of a table item that lists and correlation read; metadata (JSON text, moved to object
 * storage when large) is where long text belongs.
 */
const MAX_NAME_CHARACTERS = 500;
const MAX_SERVICE_ID_CHARACTERS = 200;
const MAX_FINGERPRINT_CHARACTERS = 512;

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * The event with its headline fields bounded: a longer name is cut (the whole of it kept as
 * `metadata.fullName`), a longer service id cut, a longer fingerprint replaced by its SHA-256, which
 * identifies the same problem just as well.
 */
export const boundedEvent = (event: NormalizedEvent): NormalizedEvent => {
  const { signal, fingerprint } = event;
  const longName = signal.name.length > MAX_NAME_CHARACTERS;
  return {
    ...event,
    signal: {
      ...signal,
      name: clip(signal.name, MAX_NAME_CHARACTERS),
      ...(signal.serviceId !== undefined && { serviceId: clip(signal.serviceId, MAX_SERVICE_ID_CHARACTERS) }),
      metadata: longName ? { ...signal.metadata, fullName: signal.name } : signal.metadata,
    },
    fingerprint:
      fingerprint.length <= MAX_FINGERPRINT_CHARACTERS
        ? fingerprint
        : `sha256:${createHash('sha256').update(fingerprint).digest('hex')}`,
  };
};
