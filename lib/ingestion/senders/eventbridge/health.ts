import * as z from 'zod/mini';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { compact, optionalText } from '#lib/ingestion/schema-kit.ts';
import { INVALID_DATE_TIME } from '#lib/ingestion/timestamps.ts';
import type { SignalSeverity } from '#lib/signals/signal-event.ts';
import { type AwsEvent, parseDetail, SENDER } from './aws-event.ts';

/** AWS Health writes its times as HTTP dates (`Fri, 27 Jan 2023 06:02:51 GMT`); kept as ISO 8601. */
const httpDate = z.nullish(
  z.pipe(
    z.string().check(z.refine((value) => !Number.isNaN(Date.parse(value)), INVALID_DATE_TIME)),
    z.transform((value) => new Date(value).toISOString()),
  ),
);

/** "AWS Health Event" ("Monitoring AWS Health events with Amazon EventBridge"). */
const healthDetail = z.object({
  eventArn: z.string().check(z.minLength(1)),
  service: optionalText,
  eventTypeCode: z.string(),
  eventTypeCategory: z.string(),
  statusCode: optionalText,
  startTime: httpDate,
  endTime: httpDate,
  lastUpdatedTime: httpDate,
  eventRegion: optionalText,
  eventScopeCode: optionalText,
  affectedAccount: optionalText,
  eventDescription: z.nullish(z.array(z.object({ language: optionalText, latestDescription: optionalText }))),
  affectedEntities: z.nullish(
    z.array(z.object({ entityValue: optionalText, tags: z.nullish(z.record(z.string(), z.string())) })),
  ),
});

/** An operational issue hurts now; an investigation may; scheduled changes and account notices are news. */
const ISSUE_SEVERITIES: Readonly<Record<string, SignalSeverity>> = { issue: 'HIGH', investigation: 'MEDIUM' };

/**
 * An AWS Health event. Issues (HIGH) and investigations (MEDIUM) trigger a signal on the event's ARN, which
 * AWS keeps across the event's updates, and `statusCode: closed` resolves it; scheduled changes and account
 * notifications are LOW records. The service is the `service` tag of an affected resource, when one has it.
 */
export const healthEvent = (event: AwsEvent): NormalizedEvent => {
  const detail = parseDetail(healthDetail, event);
  const severity = ISSUE_SEVERITIES[detail.eventTypeCategory];
  const closed = detail.statusCode === 'closed';
  const description = detail.eventDescription?.find((entry) => entry.latestDescription)?.latestDescription;
  const service = detail.affectedEntities?.map((entity) => entity.tags?.service).find(Boolean);
  return {
    signal: {
      name: `AWS Health: ${detail.eventTypeCode}${detail.eventRegion ? ` in ${detail.eventRegion}` : ''}`,
      source: SENDER,
      type: severity ? 'health_issue' : 'health_notice',
      severity: severity ?? 'LOW',
      serviceId: service,
      metadata: compact({
        detailType: event.detailType,
        eventArn: detail.eventArn,
        awsService: detail.service,
        category: detail.eventTypeCategory,
        statusCode: detail.statusCode,
        scope: detail.eventScopeCode,
        account: detail.affectedAccount ?? event.account,
        region: detail.eventRegion ?? event.region,
        startTime: detail.startTime,
        endTime: detail.endTime,
        description,
        affectedEntities: detail.affectedEntities?.map((entity) => entity.entityValue).filter(Boolean),
      }),
      triggeredAt: (closed ? detail.endTime : detail.startTime) ?? detail.lastUpdatedTime ?? event.time,
    },
    fingerprint: detail.eventArn,
    action: !severity ? 'record' : closed ? 'resolve' : 'trigger',
  };
};
