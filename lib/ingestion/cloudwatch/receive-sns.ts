import { BadGatewayError, BadRequestError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { type Delivery, type IngestedDelivery, ingestDelivery } from '#lib/ingestion/ingest-delivery.ts';
import { parseSnsMessage } from './sns-message.ts';
import { verifySnsSignature } from './sns-signature.ts';
import { fetchSnsUrl, isSnsUrl } from './sns-urls.ts';

/** What a confirmation message did: the subscription confirmed, or SNS telling us it has ended. */
export interface SnsConfirmation {
  topicArn: string;
  subscription: 'confirmed' | 'ended';
}

export type SnsReceipt =
  | { kind: 'confirmation'; confirmation: SnsConfirmation }
  | { kind: 'delivery'; delivery: IngestedDelivery };

/**
 * One POST of an SNS HTTPS subscription (docs/ingestion.md, "CloudWatch alarms"). Every message's signature is
 * verified first (401 when absent or false, nothing stored or fetched). A SubscriptionConfirmation is confirmed by
 * fetching its `SubscribeURL`, only SNS's own; an UnsubscribeConfirmation is acknowledged and nothing else
 * (subscribing again is the team's decision); a Notification is ingested as every sender's delivery is.
 */
export const receiveSnsDelivery = async (scope: Scope, delivery: Omit<Delivery, 'sender'>): Promise<SnsReceipt> => {
  const { network } = scope.ports;
  const message = parseSnsMessage(delivery.body);
  await verifySnsSignature(network, message);
  if (message.Type === 'UnsubscribeConfirmation') {
    return { kind: 'confirmation', confirmation: { topicArn: message.TopicArn, subscription: 'ended' } };
  }
  if (message.Type === 'SubscriptionConfirmation') {
    const url = message.SubscribeURL;
    if (!url || !isSnsUrl(network, url)) {
      throw new BadRequestError('Invalid SNS subscription confirmation', [
        'SubscribeURL: must be an https URL of sns.<region>.amazonaws.com',
      ]);
    }
    if ((await fetchSnsUrl(network, url)) === undefined) {
      throw new BadGatewayError('SNS did not confirm the subscription', [
        'SubscribeURL: SNS answered no confirmation; request a new one from the topic',
      ]);
    }
    return { kind: 'confirmation', confirmation: { topicArn: message.TopicArn, subscription: 'confirmed' } };
  }
  return { kind: 'delivery', delivery: await ingestDelivery(scope, { ...delivery, sender: 'cloudwatch' }) };
};
