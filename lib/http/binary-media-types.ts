/** Content types the functions answer as bytes (base64 with `isBase64Encoded`); every other body goes as text. */
const BINARY_MEDIA_TYPES = ['application/pdf', 'application/octet-stream', 'image/png'] as const;

/**
 * The API's `binaryMediaTypes`. API Gateway turns a base64 answer back into bytes only when the client's
 * first `Accept` type matches one of these, and `curl` and `fetch` send `*\/*`, which matches no list of
 * concrete types: with `*\/*` a PDF arrives as bytes whatever the client accepts. The price is on the way in:
 * every request body matches too and reaches the function base64 (a third larger), which is why the
 * ingestion routes' body limit leaves room for that within Lambda's 6 MB (lib/routes/ingestion.ts).
 */
export const GATEWAY_BINARY_MEDIA_TYPES = ['*/*'] as const;

export const isBinaryMediaType = (contentType: string): boolean => {
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return (BINARY_MEDIA_TYPES as readonly string[]).includes(mediaType);
};
