/** Words for people outside engineering: durations and severities without numbers they must decode. */
export const durationInWords = (minutes: number): string => {
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `${hours} hour${hours === 1 ? '' : 's'}${rest > 0 ? ` ${rest} minute${rest === 1 ? '' : 's'}` : ''}`;
};

export const PRIORITY_WORDS: Record<string, string> = {
  CRITICAL: 'a severe outage',
  HIGH: 'a major disruption',
  MEDIUM: 'a partial disruption, with the service slower or less reliable than usual',
  LOW: 'a minor problem with little effect on customers',
};

export const minutesBetween = (from: string, to: string): number =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 60_000));
