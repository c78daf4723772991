import { INGESTION_SENDERS, type IngestionSender, senderNamed } from '#lib/ingestion/senders/index.ts';
import type { SenderFixtures } from '#lib/ingestion/senders/sender.ts';

/** Every registered sender's fixtures (none for a sender without), loaded once for the tests' tables. */
export const SENDER_FIXTURES = Object.fromEntries(
  await Promise.all(
    INGESTION_SENDERS.map(async (name) => [name, (await senderNamed(name).fixtures?.()) ?? { files: [] }] as const),
  ),
) as Readonly<Record<IngestionSender, SenderFixtures>>;
