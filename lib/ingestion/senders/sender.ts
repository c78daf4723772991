import type { z } from 'zod/mini';
import type { Scope } from '#lib/identity/scope.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import type { Normalizer } from '../normalized-event.ts';
import type { SignatureRule } from '../signature-rules.ts';

type Headers = Record<string, string>;

/** What a sender's `/api/v1/ingestion/<name>` route says of itself in OpenAPI, beyond what every such route has. */
interface IngestionRoute {
  summary: string;
  /** A message the route also answers with 200 and stores nothing for (SNS's subscription confirmations). */
  acknowledgement?: { data: z.ZodMiniType; when: string };
  /** Error statuses beyond the common ones it answers (502: a confirmation the sender's service refused). */
  moreErrors?: readonly 502[];
}

/** A message a sender's route answers with 200, storing nothing (an SNS subscription's confirmation). */
export interface Acknowledgement {
  message: string;
  data: unknown;
}

/**
 * Opens the envelope a sender wraps its events in (SNS's): refuses one it cannot trust, answers a message that
 * carries no event, and otherwise (undefined) lets the delivery be ingested as every sender's is.
 */
export type EnvelopeCheck = (
  scope: Scope,
  delivery: { body: unknown; rawBody: string; headers: Headers },
) => Promise<Acknowledgement | undefined>;

/**
 * One ingestion sender (docs/ingestion.md, "Adding a sender"): everything the service and its tests know of
 * it, in its own folder. The route, the handler binding, the OpenAPI operation, the webhook-secret routes
 * and the test tables are derived from the registry of these (./registry.ts).
 */
export interface SenderDefinition {
  /** The route's last segment (`/api/v1/ingestion/<name>`) and the normalized `source` of its signals. */
  name: string;
  /**
   * Its route, `POST /api/v1/ingestion/<name>` (operation `ingestion.ingest<Name in PascalCase>`); null for a
   * sender reached only through an API of its own shape (a paging tool's event API, whose paths, answers and
   * integration keys are declared beside the group's other routes in lib/routes/ingestion.ts).
   */
  route: IngestionRoute | null;
  /** The sender's body, lower-cased headers and time of receipt to events; its own chunk, loaded on first use. */
  normalizer: () => Promise<Normalizer>;
  /** For a sender with an envelope of its own, what opens it; its own chunk, loaded on first use. */
  envelope?: () => Promise<EnvelopeCheck>;
  /** How a delivery proves it is the sender's, once the workspace sets a secret for it; none: the API key alone. */
  signature?: SignatureRule;
  /** The sender's id of a delivery, the same on its retries (deduplication); none: the sender gives none. */
  deliveryId?: (headers: Headers, body: unknown) => string | undefined;
  /** The ids of a payload's events when the payload names each (a message list), else undefined. */
  eventIds?: (body: unknown) => (string | undefined)[] | undefined;
  /** Its fixtures (`./fixtures.ts`), for the tests and the demo: a chunk of their own, which no delivery loads. */
  fixtures?: () => Promise<SenderFixtures>;
}

/** A sender's real payloads, as the tests post them and the demo replays them. */
export interface SenderFixtures {
  /** The payload files of `test/fixtures/ingestion/<name>/`, the first the one a single probe posts. */
  files: readonly string[];
  /** The headers besides the proof and the API key that the real sender puts on a delivery of this file. */
  headers?: (file: string, body: unknown) => Headers;
}

/**
 * A sender as the registry holds it: the normalizer and envelope check loaded once, on their first use. Its type keeps
 * what it declares, so the registry knows each name and which senders sign.
 */
export const defineSender = <const S extends SenderDefinition>(sender: S): S => ({
  ...sender,
  normalizer: onFirstUse(sender.normalizer),
  ...(sender.envelope && { envelope: onFirstUse(sender.envelope) }),
});

type PascalCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Capitalize<Head>}${PascalCase<Tail>}`
  : Capitalize<S>;

/** A sender's route key in the ingestion group (`codehost-a` is `ingestCodehostA`), its OpenAPI `operationId`. */
export type IngestRouteKey<Name extends string> = `ingest${PascalCase<Name>}`;

export const ingestRouteKey = <Name extends string>(name: Name): IngestRouteKey<Name> =>
  `ingest${name
    .split('-')
    .map((part) => `${part.charAt(0).toUpperCase()}${part.slice(1)}`)
    .join('')}` as IngestRouteKey<Name>;
