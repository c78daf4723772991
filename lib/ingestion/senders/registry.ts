import { cloudwatch } from './cloudwatch/sender.ts';
import { codehostA } from './codehost-a/sender.ts';
import { codehostB } from './codehost-b/sender.ts';
import { codehostC } from './codehost-c/sender.ts';
import { eventbridge } from './eventbridge/sender.ts';
import { eventsV2, eventsV2Change } from './events-v2/sender.ts';
import { metricsAlerts } from './metrics-alerts/sender.ts';
import { monitoring } from './monitoring/sender.ts';
import { opsgenie } from './opsgenie/sender.ts';
import { orchestrator } from './orchestrator/sender.ts';
import { paging } from './paging/sender.ts';
import { webhook } from './webhook/sender.ts';

/**
 * Every ingestion sender, one folder each (docs/ingestion.md, "Adding a sender"), in the order of their routes.
 * Nothing else lists them: the names, routes, handlers, secrets routes and test tables are read from here.
 */
export const SENDERS = [
  codehostA,
  codehostB,
  codehostC,
  orchestrator,
  paging,
  metricsAlerts,
  monitoring,
  webhook,
  cloudwatch,
  eventbridge,
  eventsV2,
  eventsV2Change,
  opsgenie,
] as const;
