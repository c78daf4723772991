/** The credentials a request carries, in every form the API accepts them (DECISIONS.md, API keys). */
export interface Credentials {
  bearer?: string;
  /** An API key in the `X-API-Key` header, the form every key-accepting route takes. */
  headerKey?: string;
  /** The other forms, which only ingestion routes take: `?apiKey=` (or `?api_key=`) and `Authorization: ApiKey`. */
  senderKey?: string;
}

/**
 * The query parameters that carry a sender's key: `apiKey`, and `api_key`, the spelling of the Alertmanager
 * receiver configuration our real-sender fixtures were captured with (test/fixtures/ingestion/metrics-alerts).
 */
export const API_KEY_QUERY_NAMES = ['apiKey', 'api_key'] as const;

export interface CredentialSource {
  headers: Record<string, string | undefined> | null;
  queryStringParameters: Record<string, string | undefined> | null;
}

/** A header by its name in any case: API Gateway hands an authorizer the headers as the client wrote them. */
const headerOf = (headers: CredentialSource['headers'], name: string): string | undefined => {
  if (!headers) return undefined;
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
};

/** Finds the credentials; whether they are good, and whether the route takes their form, is decided later. */
export const credentialsOf = ({ headers, queryStringParameters }: CredentialSource): Credentials => {
  const authorization = headerOf(headers, 'authorization')?.trim() ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
  const authorizationKey = /^ApiKey\s+(\S+)$/i.exec(authorization)?.[1];
  const headerKey = headerOf(headers, 'x-api-key')?.trim() || undefined;
  const queryKey = API_KEY_QUERY_NAMES.map((name) => queryStringParameters?.[name]?.trim()).find(Boolean);
  const senderKey = authorizationKey ?? queryKey;
  return {
    ...(bearer && { bearer }),
    ...(headerKey && { headerKey }),
    ...(senderKey && { senderKey }),
  };
};

/** The API key a request presents, whichever form it takes; a Bearer token means none. */
export const presentedApiKey = (credentials: Credentials): string | undefined =>
  credentials.bearer ? undefined : (credentials.headerKey ?? credentials.senderKey);
