import * as z from 'zod/mini';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { compact, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import type { SignalSeverity } from '#lib/signals/signal-event.ts';
import { storableNumber } from '#lib/store/stored-json.ts';
import { type AwsEvent, parseDetail, SENDER } from './aws-event.ts';

/** "GuardDuty Finding" ("GuardDuty finding format"). */
const findingDetail = z.object({
  id: z.string().check(z.minLength(1)),
  arn: optionalText,
  type: z.string(),
  title: optionalText,
  description: optionalText,
  severity: storableNumber,
  createdAt: optionalDateTime,
  updatedAt: optionalDateTime,
  resource: z.nullish(
    z.object({
      resourceType: optionalText,
      instanceDetails: z.nullish(
        z.object({
          instanceId: optionalText,
          tags: z.nullish(z.array(z.object({ key: z.string(), value: z.string() }))),
        }),
      ),
    }),
  ),
  service: z.nullish(z.object({ count: z.nullish(storableNumber), archived: z.nullish(z.boolean()) })),
});

/** GuardDuty's bands: 7.0 and up High (and Critical, 9.0 and up), 4.0 to 6.9 Medium, below Low. */
const severityOf = (score: number): SignalSeverity => (score >= 7 ? 'HIGH' : score >= 4 ? 'MEDIUM' : 'LOW');

/**
 * A GuardDuty finding triggers a signal of its severity band. GuardDuty sends the same finding id again as it
 * sees the activity again (its `service.count` grows), so the finding id is the fingerprint and repeats merge.
 * The service is the `service` tag of the instance the finding is about.
 */
export const guardDutyFinding = (event: AwsEvent): NormalizedEvent => {
  const detail = parseDetail(findingDetail, event);
  const instance = detail.resource?.instanceDetails;
  return {
    signal: {
      name: detail.title || detail.type,
      source: SENDER,
      type: 'guardduty_finding',
      severity: severityOf(detail.severity),
      serviceId: instance?.tags?.find((tag) => tag.key === 'service')?.value,
      value: detail.severity,
      metadata: compact({
        detailType: event.detailType,
        findingId: detail.id,
        findingArn: detail.arn,
        findingType: detail.type,
        description: detail.description,
        guardDutySeverity: detail.severity,
        resourceType: detail.resource?.resourceType,
        instanceId: instance?.instanceId,
        count: detail.service?.count,
        account: event.account,
        region: event.region,
      }),
      triggeredAt: detail.updatedAt ?? detail.createdAt ?? event.time,
    },
    fingerprint: detail.id,
    action: 'trigger',
  };
};
