import { localDateTime } from '#lib/contract/zoned-time.ts';
import { printable } from './fonts.ts';

/** Colours and the formats of times, durations and confidences, as the report prints them. */
export const COLORS = {
  ink: '#1f2933',
  muted: '#616e7c',
  faint: '#9aa5b1',
  rule: '#d9dee4',
  shade: '#f3f5f7',
  accent: '#2f5f8a',
};

export const STATUS_COLORS: Record<string, string> = {
  OPEN: '#c62828',
  ACKNOWLEDGED: '#d84315',
  INVESTIGATION: '#b45309',
  INVESTIGATING: '#b45309',
  IDENTIFIED: '#b45309',
  MITIGATED: '#1565c0',
  MONITORING: '#1565c0',
  RESOLVED: '#2e7d32',
  CLOSED: '#52606d',
};

export const PRIORITY_COLORS: Record<string, string> = {
  P0: '#8e0000',
  P1: '#c62828',
  CRITICAL: '#c62828',
  SEV1: '#c62828',
  P2: '#d84315',
  HIGH: '#d84315',
  SEV2: '#d84315',
  P3: '#b45309',
  MEDIUM: '#b45309',
  MODERATE: '#b45309',
  SEV3: '#b45309',
  P4: '#1565c0',
  LOW: '#1565c0',
  SEV4: '#1565c0',
  P5: '#52606d',
  INFO: '#52606d',
  PLANNING: '#52606d',
};

export const colorOf = (palette: Record<string, string>, value: string): string =>
  palette[value.trim().toUpperCase()] ?? '#3e4c59';

export const NONE = 'None recorded';
export const NO_VALUE = '—';

/** Prints an ISO timestamp; the zone is named once, in the report's header, not after every time. */
export type TimeFormat = (iso: string | undefined) => string;

/**
 * ISO timestamps as `2024-05-01 16:05:12`, the wall clock of an IANA zone, assembled from its parts so no
 * locale's order or punctuation leaks in.
 */
export const timeFormatIn =
  (timeZone: string): TimeFormat =>
  (iso) => {
    if (iso === undefined || iso === '') return NO_VALUE;
    const time = new Date(iso);
    if (Number.isNaN(time.getTime())) return printable(iso);
    return localDateTime(time, timeZone).replace('T', ' ');
  };

/** Elapsed time between two timestamps as `45 s`, `12 min`, `2 h 5 min` or `3 d 4 h`. */
export const formatDuration = (fromIso: string | undefined, toIso: string | undefined): string => {
  if (fromIso === undefined || toIso === undefined) return NO_VALUE;
  const seconds = Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 1000);
  if (!Number.isFinite(seconds) || seconds < 0) return NO_VALUE;
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
};

/** Analyses report confidence either as a fraction or as a percentage; both read as a percentage. */
export const formatConfidence = (confidence: number): string => {
  if (!Number.isFinite(confidence)) return NO_VALUE;
  const percent = confidence <= 1 ? confidence * 100 : confidence;
  return `${Math.round(Math.min(100, Math.max(0, percent)))}%`;
};

export const truncate = (text: string, length: number): string =>
  text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text;
