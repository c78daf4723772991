export type SignalSeverity = 'LOW' | 'MEDIUM' | 'HIGH';

/** The spec's Signal input, as a sender's event becomes it. */
interface CanonicalSignal {
  name: string;
  /** The ingestion route's sender name (`codehost-a`, `paging`, ...); `POST /signals` takes any. */
  source: string;
  /**
   * What kind of event this is. Deduplication keys on source, type and fingerprint, so a trigger and the
   * resolve that ends it carry the same type, and a 'record' never shares a type with a trigger.
   */
  type: string;
  severity: SignalSeverity;
  serviceId?: string;
  value?: number;
  /** The useful parts of the payload (repository, URLs, labels, the sender's own severity...), not all of it. */
  metadata: Record<string, unknown>;
  /** ISO 8601: when the sender says the event happened, else when it was received. */
  triggeredAt: string;
}

export type NormalizedAction = 'trigger' | 'acknowledge' | 'resolve' | 'record';

/** What signal storage needs of a sender's event: the signal, its identity and what it does. */
export interface SignalEvent {
  signal: CanonicalSignal;
  /**
   * Identity of the problem per sender (DECISIONS.md "Ingestion and signals"): readable, not hashed, and the
   * same across retries and re-sends of the same event.
   */
  fingerprint: string;
  /**
   * 'trigger' opens or merges; 'acknowledge' acknowledges the matching open signal (a paging tool's event API);
   * 'resolve' resolves it; 'record' is informational (a ping, a push, a successful pipeline): stored at LOW
   * severity, never correlated into incidents.
   */
  action: NormalizedAction;
}
