/**
 * What a page's push carries to the console's service worker (console/service-worker.ts), which shows it as a
 * notification and answers its actions; built by lib/notifications/push-sends.ts. The worker imports this type
 * only, so the two sides cannot drift.
 */
export interface PushPayload {
  title: string;
  body: string;
  incidentId: string;
  /** One notification per incident: a later page replaces the earlier one on the device. */
  tag: string;
  /** The incident's page in the console, which "Open" and a tap open. */
  url: string;
  /** The member's one-click acknowledge link, while the incident is OPEN. */
  ackUrl?: string;
  actions: { action: 'acknowledge' | 'open'; title: string }[];
}
