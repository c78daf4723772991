import { UnauthorizedError } from '#lib/contract/errors.ts';

/**
 * A proof that does not hold. The same message for every reason; the field message says which check
 * failed, which tells the caller nothing about accounts, only about the token it sent.
 */
export const proofRejected = (problem: string): UnauthorizedError =>
  new UnauthorizedError('Invalid OAuth credentials', [problem]);
