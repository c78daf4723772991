import { asFields, text } from '#lib/ingestion/delivery-fields.ts';
import { defineSender } from '../sender.ts';
import { snsConfirmationData } from './confirmation.ts';

/**
 * CloudWatch alarms through an Amazon SNS HTTPS subscription (docs/ingestion.md, "AWS: CloudWatch alarms"):
 * SNS signs every message itself, so its envelope is checked, not a workspace secret.
 */
export const cloudwatch = defineSender({
  name: 'cloudwatch',
  route: {
    summary: 'Amazon SNS HTTPS subscription for CloudWatch alarms: SNS-signed messages only (docs/ingestion.md)',
    acknowledgement: {
      data: snsConfirmationData,
      when: 'an SNS subscription or unsubscribe confirmation; nothing stored',
    },
    moreErrors: [502],
  },
  normalizer: async () => (await import('./normalize.ts')).normalizeCloudwatch,
  envelope: async () => (await import('./receive-sns.ts')).receiveSnsDelivery,
  // The SNS message's `MessageId`, the same on each of SNS's retries.
  deliveryId: (_headers, body) => text(asFields(body).MessageId),
  fixtures: async () => (await import('./fixtures.ts')).fixtures,
});
