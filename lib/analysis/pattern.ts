/** What following an analysis's suggestions did (spec: POST /assistant/learn). */
export const OUTCOMES = ['RESOLVED', 'DEGRADED', 'NEUTRAL', 'WORSENED'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** A recurring kind of failure, learned from outcomes (spec: Pattern) plus what it is and how it went. */
export interface Pattern {
  patternId: string;
  description: string;
  occurrences: number;
  affectedServices: string[];
  firstSeen: string;
  lastSeen: string;
  /** The fix that worked: the first remediation of the latest RESOLVED outcome, else the latest proposed. */
  suggestedFix: string;
  suspectKind: string;
  suspectService: string | null;
  outcomes: Record<Outcome, number>;
}
