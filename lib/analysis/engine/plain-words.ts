/** Words for people outside engineering: durations and severities without numbers they must decode. */
export const durationInWords = (minutes: number): string => {
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `${hours} hour${hours === 1 ? '' : 's'}${rest > 0 ? ` ${rest} minute${rest === 1 ? '' : 's'}` : ''}`;
};

/**
 * A priority in plain words: what happened, and what it meant (the spec's meanings: MEDIUM is degraded
 * service, LOW minimal impact with no customer effect), said after the service and duration.
 */
export const PRIORITY_WORDS: Record<string, { what: string; meaning?: string }> = {
  CRITICAL: { what: 'a severe outage' },
  HIGH: { what: 'a major disruption' },
  MEDIUM: { what: 'a partial disruption', meaning: 'with the service slower or less reliable than usual' },
  LOW: { what: 'a minor problem', meaning: 'with no effect on customers' },
};

export const minutesBetween = (from: string, to: string): number =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 60_000));
