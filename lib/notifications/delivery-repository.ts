import { assertOfWorkspace, storedFields } from '#lib/store/item-values.ts';
import type { Table } from '#lib/store/table.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import { updateIfPresent, updateItem } from '#lib/store/conditional-writes.ts';
import { notificationEventNamed, type NotificationEvent } from '#lib/incidents/notification-events.ts';
import type { Delivery, DeliveryAttempt } from './delivery.ts';

/** NOTIFY items (docs/data-model.md 5.17): `{W}#NOTIFY#<incidentId>` / `<eventAt>#<event>#<channel>#<recipient>`. */
const deliveryPartition = (workspaceId: string, incidentId: string): string =>
  workspaceKey(workspaceId, 'NOTIFY', incidentId);

const eventPrefix = (eventAt: string, event: NotificationEvent): string => `${eventAt}#${event}#`;

const deliveryKey = (workspaceId: string, delivery: DeliveryTarget) => ({
  pk: deliveryPartition(workspaceId, delivery.incidentId),
  sk: `${eventPrefix(delivery.eventAt, delivery.event)}${delivery.channel}#${encodeURIComponent(delivery.recipient.toLowerCase())}`,
});

/** Which delivery an attempt belongs to. */
export type DeliveryTarget = Pick<Delivery, 'incidentId' | 'event' | 'eventAt' | 'channel' | 'recipient'>;

const fromItem = (item: Record<string, unknown>, workspaceId: string): Delivery => {
  assertOfWorkspace(item, workspaceId, `delivery ${String(item.sk)}`);
  return {
    ...storedFields<Delivery>()(item, [
      'incidentId',
      'event',
      'eventAt',
      'channel',
      'recipient',
      'status',
      'createdAt',
      'updatedAt',
    ]),
    event: notificationEventNamed(String(item.event)),
    attempts: (item.attempts as DeliveryAttempt[] | undefined) ?? [],
    ...(typeof item.meetingUrl === 'string' && { meetingUrl: item.meetingUrl }),
    ...(typeof item.acknowledgedAt === 'string' && { acknowledgedAt: item.acknowledgedAt }),
  };
};

export const deliveryRepository = (table: Table, workspaceId: string) => {
  /**
   * One event's deliveries so far: what a retry must not send again. Read by the event's instant and told apart by
   * its name as it reads now, so a delivery stored under the event's former name still counts.
   */
  const queryEventDeliveries = async (target: Omit<DeliveryTarget, 'channel' | 'recipient'>): Promise<Delivery[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :at)',
      ExpressionAttributeValues: {
        ':pk': deliveryPartition(workspaceId, target.incidentId),
        ':at': `${target.eventAt}#`,
      },
      ConsistentRead: true,
    });
    return items.map((item) => fromItem(item, workspaceId)).filter((delivery) => delivery.event === target.event);
  };

  /** Every delivery of the incident, oldest event first. */
  const queryIncidentDeliveries = async (incidentId: string): Promise<Delivery[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': deliveryPartition(workspaceId, incidentId) },
    });
    return items.map((item) => fromItem(item, workspaceId));
  };

  /** Appends the attempt and sets the delivery's status to its outcome, creating the delivery on its first attempt. */
  const recordAttempt = async (
    target: DeliveryTarget,
    attempt: DeliveryAttempt,
    meetingUrl?: string,
  ): Promise<void> => {
    await updateItem(table, deliveryKey(workspaceId, target), {
      UpdateExpression:
        'SET #type = :type, workspaceId = :ws, incidentId = :incident, #event = :event, eventAt = :eventAt, ' +
        'channel = :channel, recipient = :recipient, #status = :status, ' +
        'attempts = list_append(if_not_exists(attempts, :none), :attempt), ' +
        `createdAt = if_not_exists(createdAt, :now), updatedAt = :now${meetingUrl ? ', meetingUrl = :meeting' : ''}`,
      ExpressionAttributeNames: { '#type': 'type', '#event': 'event', '#status': 'status' },
      ExpressionAttributeValues: {
        ':type': 'NOTIFICATION_DELIVERY',
        ':ws': workspaceId,
        ':incident': target.incidentId,
        ':event': target.event,
        ':eventAt': target.eventAt,
        ':channel': target.channel,
        ':recipient': target.recipient,
        ':status': attempt.outcome,
        ':none': [],
        ':attempt': [attempt],
        ':now': attempt.at,
        ...(meetingUrl && { ':meeting': meetingUrl }),
      },
    });
  };

  /** Notes that the delivery's acknowledge link acknowledged the incident; nothing if it was never recorded. */
  const markAcknowledged = async (target: DeliveryTarget, at: string): Promise<void> => {
    await updateIfPresent(table, deliveryKey(workspaceId, target), {
      UpdateExpression: 'SET acknowledgedAt = :at',
      ExpressionAttributeValues: { ':at': at },
    });
  };

  return { queryEventDeliveries, queryIncidentDeliveries, recordAttempt, markAcknowledged };
};
