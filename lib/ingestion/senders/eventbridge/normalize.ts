import type { NormalizedEvent, Normalizer } from '#lib/ingestion/normalized-event.ts';
import { compact } from '#lib/ingestion/schema-kit.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import { alarmStateChange } from './alarm-state-change.ts';
import { type AwsEvent, envelopeMetadata, parseAwsEvent, SENDER } from './aws-event.ts';
import { codeDeploy, codePipeline, ecsDeployment } from './deployments.ts';
import { guardDutyFinding } from './guardduty.ts';
import { healthEvent } from './health.ts';

type Mapping = (event: AwsEvent, receivedAt: Date) => NormalizedEvent;

/** The events mapped, by `source` and `detail-type` (docs/ingestion.md, "EventBridge"). */
const MAPPINGS: ReadonlyMap<string, Mapping> = new Map([
  ['aws.cloudwatch|CloudWatch Alarm State Change', alarmStateChange],
  ['aws.health|AWS Health Event', healthEvent],
  ['aws.guardduty|GuardDuty Finding', guardDutyFinding],
  ['aws.codedeploy|CodeDeploy Deployment State-change Notification', codeDeploy],
  ['aws.codepipeline|CodePipeline Pipeline Execution State Change', codePipeline],
  ['aws.ecs|ECS Deployment State Change', ecsDeployment],
]);

/**
 * Any other event a rule sends (another AWS service's, or a team's own `PutEvents`): a LOW record named by its
 * detail type, with its detail kept, about its first resource (else the event itself), so nothing a rule
 * matched is refused or lost.
 */
const otherEvent = (event: AwsEvent): NormalizedEvent => ({
  signal: {
    name: `${event.detailType} (${event.source})`,
    source: SENDER,
    type: 'event',
    severity: 'LOW',
    metadata: compact({ ...envelopeMetadata(event), detail: event.detail }),
    triggeredAt: event.time,
  },
  fingerprint: fingerprintOf(event.source, event.detailType, event.resources[0] ?? event.id),
  action: 'record',
});

/** One event per POST: an API destination sends each event a rule matched on its own. */
export const normalizeEventbridge: Normalizer = (body, _headers, receivedAt) => {
  const event = parseAwsEvent(body, receivedAt);
  const mapping = MAPPINGS.get(`${event.source}|${event.detailType}`) ?? otherEvent;
  return [mapping(event, receivedAt)];
};
