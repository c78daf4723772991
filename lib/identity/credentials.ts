/** The credentials a request carries, in every form the API accepts them (DECISIONS.md, API keys). */
export interface Credentials {
  bearer?: string;
  /** An API key in the `X-API-Key` header, the form every key-accepting route takes. */
  headerKey?: string;
  /** The other two forms, which only ingestion routes take: `?apiKey=` and `Authorization: ApiKey`. */
  senderKey?: string;
}

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
  const senderKey = authorizationKey ?? (queryStringParameters?.apiKey?.trim() || undefined);
  return {
    ...(bearer && { bearer }),
    ...(headerKey && { headerKey }),
    ...(senderKey && { senderKey }),
  };
};

/** The API key a request presents, whichever form it takes; a Bearer token means none. */
export const presentedApiKey = (credentials: Credentials): string | undefined =>
  credentials.bearer ? undefined : (credentials.headerKey ?? credentials.senderKey);
