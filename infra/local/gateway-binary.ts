import { GATEWAY_BINARY_MEDIA_TYPES } from '#lib/http/binary-media-types.ts';

const mediaTypeOf = (value: string): string => value.split(';')[0]?.trim().toLowerCase() ?? '';

/** A `binaryMediaTypes` entry against one media type: a `*` stands for a whole part, as API Gateway reads it. */
const matches = (pattern: string, mediaType: string): boolean => {
  const [patternType, patternSubtype] = pattern.split('/');
  const [type, subtype] = mediaType.split('/');
  return (patternType === '*' || patternType === type) && (patternSubtype === '*' || patternSubtype === subtype);
};

const isGatewayBinary = (mediaType: string): boolean =>
  GATEWAY_BINARY_MEDIA_TYPES.some((pattern) => matches(pattern, mediaType));

/** A request body reaches the function base64 when its type is binary; API Gateway takes no type as JSON. */
export const requestIsBinary = (contentType: string | undefined): boolean =>
  isGatewayBinary(mediaTypeOf(contentType || 'application/json'));

/**
 * A base64 answer goes out as bytes only when the client's first `Accept` type is binary: a wildcard in the
 * Accept header stands for nothing (`*\/*` against `application/pdf` is text), and no Accept header is text.
 */
export const answerIsDecoded = (accept: string | undefined): boolean => {
  const first = accept?.split(',')[0];
  return first !== undefined && isGatewayBinary(mediaTypeOf(first));
};
