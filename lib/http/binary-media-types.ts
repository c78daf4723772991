/**
 * Content types API Gateway passes to and from Lambda as base64; the stack declares the same list, so
 * PDF exports arrive as bytes and JSON stays text.
 */
export const BINARY_MEDIA_TYPES = ['application/pdf', 'application/octet-stream'] as const;

export const isBinaryMediaType = (contentType: string): boolean => {
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return (BINARY_MEDIA_TYPES as readonly string[]).includes(mediaType);
};
