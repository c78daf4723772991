const nameOf = (error: unknown): string | undefined =>
  error instanceof Object && 'name' in error && typeof error.name === 'string' ? error.name : undefined;

export const isConditionFailure = (error: unknown): boolean => nameOf(error) === 'ConditionalCheckFailedException';

/** DynamoDB's answers that mean "not now" rather than "not this": the request itself was fine. */
const UNAVAILABLE = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
]);

/** The table refused the write for capacity or availability; the SDK's own retries were already spent. */
export const isStoreUnavailable = (error: unknown): boolean => {
  const name = nameOf(error);
  return name !== undefined && UNAVAILABLE.has(name);
};

/** A list's `cursor` that this list did not issue; the HTTP layer answers 400 naming `cursor`. */
export class InvalidCursorError extends Error {
  constructor(readonly reason: string) {
    super(`cursor: ${reason}`);
    this.name = 'InvalidCursorError';
  }
}
