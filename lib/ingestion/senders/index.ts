import type { SenderDefinition } from './sender.ts';
import { SENDERS } from './registry.ts';

type Registered = (typeof SENDERS)[number];

/** A sender's name: its route's last segment and the normalized `source` of its signals. */
export type IngestionSender = Registered['name'];

/** A sender that proves its deliveries with a secret the workspace shares with it. */
export type SignedSender = Extract<Registered, { signature: object }>['name'];

type NonEmpty<T> = readonly [T, ...T[]];

export const INGESTION_SENDERS = SENDERS.map(({ name }) => name) as unknown as NonEmpty<IngestionSender>;

/** A sender with its own `/api/v1/ingestion/<name>` route, as most have. */
export type RoutedSender = Exclude<Registered, { route: null }>['name'];

export const ROUTED_SENDERS = SENDERS.flatMap(({ name, route }) =>
  route ? [name] : [],
) as unknown as NonEmpty<RoutedSender>;

export const SIGNED_SENDERS = SENDERS.flatMap(({ name, ...sender }) =>
  'signature' in sender ? [name] : [],
) as unknown as NonEmpty<SignedSender>;

const BY_NAME = new Map<string, SenderDefinition>(SENDERS.map((sender) => [sender.name, sender]));

/** The registered sender of this name; the names come from routes and stored secrets, so it is always there. */
export const senderNamed = (name: IngestionSender): SenderDefinition => {
  const sender = BY_NAME.get(name);
  if (!sender) throw new Error(`No ingestion sender is named ${name}`);
  return sender;
};

export const isSignedSender = (name: IngestionSender): name is SignedSender =>
  senderNamed(name).signature !== undefined;
