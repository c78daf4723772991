/** Every kind of integration, by the spec's neutral names, which are also the path segments. */
export const INTEGRATION_TYPES = ['chat', 'codehost-a', 'codehost-b', 'videomeet', 'sms', 'messaging-app'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/**
 * The spec's `type` of an integration (Resources, Integration) for each path name: answered as `type` beside
 * `integrationType`, the name the routes use.
 */
export const RESOURCE_TYPES = {
  chat: 'CHAT',
  'codehost-a': 'CODE_HOST_A',
  'codehost-b': 'CODE_HOST_B',
  videomeet: 'VIDEO_MEET',
  sms: 'SMS',
  'messaging-app': 'MESSAGING_APP',
} as const satisfies Record<IntegrationType, string>;
type ResourceType = (typeof RESOURCE_TYPES)[IntegrationType];

export const INTEGRATION_STATUSES = ['ACTIVE', 'ERROR', 'DISCONNECTED'] as const;
export type IntegrationStatus = (typeof INTEGRATION_STATUSES)[number];

/** What an OAuth connection keeps, sealed at rest (sealed-credentials.ts). */
export interface OAuthCredentials {
  accessToken: string;
  refreshToken?: string;
  /** When the access token stops working; absent when the provider gives no expiry. */
  expiresAt?: string;
}

/**
 * A member's connection of one integration (spec: `GET /integrations/:userId`). `statusReason` says why a
 * connection is in ERROR (a refused token exchange or refresh, a token the provider revoked).
 */
export interface Integration {
  id: string;
  userId: string;
  integrationType: IntegrationType;
  status: IntegrationStatus;
  statusReason: string | null;
  connectedAt: string;
  updatedAt: string;
  /** SMS and messaging app: the number, E.164. */
  phoneNumber?: string;
  /** SMS: the carrier or gateway named at connect. */
  provider?: string;
  /** Chat: the channel the webhook posts to. */
  channel?: string;
}

/** A stored connection: the view plus its sealed credentials and the revision its writes are conditioned on. */
export interface StoredIntegration extends Integration {
  credentials: string | null;
  rev: number;
}

/** A connection as the API answers it: without its credentials, with the spec's `type`. */
export interface IntegrationView extends Integration {
  type: ResourceType;
}

export const integrationView = ({
  credentials: _sealed,
  rev: _rev,
  id,
  ...integration
}: StoredIntegration): IntegrationView => ({ id, type: RESOURCE_TYPES[integration.integrationType], ...integration });
