import type { Scope } from '#lib/identity/scope.ts';
import { type Delivery, type IngestedDelivery, ingestDelivery } from './ingest-delivery.ts';
import { senderNamed } from './senders/index.ts';
import type { Acknowledgement } from './senders/sender.ts';

/** What a sender's route answers: its events ingested (202), or a message acknowledged with nothing stored (200). */
export type Receipt = { kind: 'delivery'; delivery: IngestedDelivery } | ({ kind: 'acknowledged' } & Acknowledgement);

/** One POST of a sender's route: its envelope opened when it has one of its own (SNS), then its events ingested. */
export const receiveDelivery = async (scope: Scope, delivery: Delivery): Promise<Receipt> => {
  const { envelope } = senderNamed(delivery.sender);
  const acknowledgement = envelope && (await (await envelope())(scope, delivery));
  if (acknowledgement) return { kind: 'acknowledged', ...acknowledgement };
  return { kind: 'delivery', delivery: await ingestDelivery(scope, delivery) };
};
