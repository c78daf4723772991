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
