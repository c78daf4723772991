import { BadGatewayError, BadRequestError } from '#lib/contract/errors.ts';
import type { Acknowledgement, EnvelopeCheck } from '../sender.ts';
import type { SnsConfirmation } from './confirmation.ts';
import { parseSnsMessage } from './sns-message.ts';
import { verifySnsSignature } from './sns-signature.ts';
import { fetchSnsUrl, isSnsUrl } from './sns-urls.ts';

const confirmed = (confirmation: SnsConfirmation): Acknowledgement => ({
  message: confirmation.subscription === 'confirmed' ? 'Subscription confirmed' : 'Unsubscribe noted',
  data: confirmation,
});

/**
 * One POST of an SNS HTTPS subscription (docs/ingestion.md, "CloudWatch alarms"). Every message's signature is
 * verified first (401 when absent or false, nothing stored or fetched). A SubscriptionConfirmation is confirmed by
 * fetching its `SubscribeURL`, only SNS's own; an UnsubscribeConfirmation is acknowledged and nothing else
 * (subscribing again is the team's decision); a Notification is left to be ingested as every sender's delivery is.
 */
export const receiveSnsDelivery: EnvelopeCheck = async (scope, delivery) => {
  const { network } = scope.ports;
  const message = parseSnsMessage(delivery.body);
  await verifySnsSignature(network, message);
  if (message.Type === 'UnsubscribeConfirmation') {
    return confirmed({ topicArn: message.TopicArn, subscription: 'ended' });
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
    return confirmed({ topicArn: message.TopicArn, subscription: 'confirmed' });
  }
  return undefined;
};
