/** One service a blast-radius report finds affected, with the figures its score came from. */
export interface AffectedService {
  serviceId: string;
  name: string;
  /** Hops from the report's service: 0 for the service itself, 1 for a direct dependent. */
  depth: number;
  riskScore: number;
  /** How many services depend on it directly, in the whole map. */
  dependents: number;
  openSignals: number;
  openIncidents: number;
  failedPipelineRuns: number;
}

export const TRIGGER_TYPES = ['SIGNAL', 'INCIDENT'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** A persisted blast-radius report (spec: Blast-radius report). */
export interface BlastReport {
  reportId: string;
  triggerId: string | null;
  triggerType: TriggerType | null;
  serviceId: string;
  environment: string | null;
  depth: number;
  affectedServices: AffectedService[];
  estimatedUserImpact: string;
  overallRiskScore: number;
  calculatedAt: string;
}

/** Report and signal ids are ULIDs; any other value names neither and is answered without a read. */
export const isUlid = (value: string): boolean => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
