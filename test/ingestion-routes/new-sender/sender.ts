import { asFields, text } from '#lib/ingestion/delivery-fields.ts';
import { defineSender } from '#lib/ingestion/senders/sender.ts';
import { type SignatureRule, sameSecret } from '#lib/ingestion/signature-rules.ts';

/** A proof in the body, as PagerDuty Events v2 sends its `routing_key`: the shared secret itself. */
const routingKey: SignatureRule = {
  location: 'body.routing_key',
  proofOf: ({ body }) => text(asFields(body).routing_key),
  matches: (proof, _rawBody, secret) => sameSecret(proof, secret),
  sign: (rawBody, secret) => ({
    rawBody: JSON.stringify({ ...JSON.parse(rawBody), routing_key: secret }),
    headers: {},
  }),
};

/** A sender as a new folder under lib/ingestion/senders/ would declare it (docs/ingestion.md, "Adding a sender"). */
export const exampleAlerts = defineSender({
  name: 'example-alerts',
  route: { summary: 'Ingest an example alert' },
  normalizer: async () => (await import('./normalize.ts')).normalizeExampleAlerts,
  signature: routingKey,
  deliveryId: (_headers, body) => text(asFields(body).event_id),
});
