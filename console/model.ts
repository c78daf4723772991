/** The API's records as the console reads them: only the fields it shows (docs/spec, lib/*\/schemas.ts). */
export const INCIDENT_STATUSES = ['OPEN', 'ACKNOWLEDGED', 'INVESTIGATION', 'MITIGATED', 'RESOLVED', 'CLOSED'] as const;
export const PRIORITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
export const SIGNAL_STATUSES = ['OPEN', 'ACKNOWLEDGED', 'RESOLVED', 'SUPPRESSED'] as const;
export const SEVERITIES = ['HIGH', 'MEDIUM', 'LOW'] as const;

export interface Incident {
  id: string;
  summary: string;
  priority: string;
  status: string;
  serviceArea: string | null;
  environment: string | null;
  region: string | null;
  assignedToEmail: string | null;
  description: string | null;
  impactSummary: string | null;
  createdAt: string;
  acknowledgedAt: string | null;
  resolvedAt: string | null;
}

export interface Comment {
  id: string;
  content: string;
  authorEmail: string;
  createdAt: string;
}

export interface Message {
  id: string;
  kind: string;
  text: string;
  actor: string;
  createdAt: string;
}

export interface HistoryEvent {
  id: string;
  event: string;
  from: string | null;
  to: string | null;
  field?: string;
  actor: string;
  message?: string;
  timestamp: string;
}

export interface Signal {
  id: string;
  name: string;
  source: string;
  severity: string;
  status: string;
  incidentId: string | null;
  occurrences: number;
  triggeredAt: string;
  lastSeenAt: string;
}

export interface EvidenceItem {
  id: string;
  kind: string;
  service: string | null;
  at: string | null;
  summary: string;
  strength: number;
}

/** An analysis as it stands, what the page polls after starting one. */
export interface AnalysisState {
  analysisId: string;
  status: 'PROCESSING' | 'COMPLETE' | 'FAILED';
  stage: string;
  failureReason: string | null;
}

export interface Analysis {
  analysisId: string;
  status: string;
  hypothesis: string | null;
  rootCause: string | null;
  impactAssessment: string | null;
  contributingFactors: string[];
  remediationOptions: string[];
  confidence: number | null;
  completedAt: string | null;
  evidence: EvidenceItem[];
}

export interface Execution {
  executionId: string;
  playbookTitle: string;
  incidentId: string | null;
  status: string;
  currentStepIndex: number;
  startedAt?: string;
  steps: { index: number; title: string; status: string; optional: boolean; note: string | null }[];
}

export interface Notification {
  event: string;
  eventAt: string;
  channel: string;
  recipient: string;
  status: string;
}

export interface Member {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
}

export interface Assignment {
  id: string;
  userId: string;
  email?: string;
  date: string;
  startTime: string;
  endTime: string;
  timezone?: string;
  startsAt?: string;
  endsAt?: string;
}

/** `GET /heartbeats` (docs/heartbeats.md). */
export interface Heartbeat {
  id: string;
  name: string;
  intervalSeconds: number;
  graceSeconds: number;
  serviceId: string | null;
  state: 'UP' | 'LATE' | 'DOWN' | 'PAUSED';
  lastPingAt: string | null;
  nextPingDueAt: string;
}

/** `GET /maintenance-windows` (docs/heartbeats.md). */
export interface MaintenanceWindow {
  id: string;
  serviceIds: string[];
  startsAt: string;
  endsAt: string;
  reason: string;
  active: boolean;
}
