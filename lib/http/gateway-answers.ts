/**
 * What the gateway itself says when it refuses a usage-plan key (a revoked, deactivated, rotated or
 * deleted API key's mirror): one static answer, in AWS as locally, before any function runs.
 */
export const INVALID_API_KEY = 'Invalid API key';
