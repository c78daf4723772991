import type * as z from 'zod/mini';
import { BadRequestError } from '#lib/contract/errors.ts';
import { fieldMessages } from '#lib/contract/field-messages.ts';

/**
 * A payload that lacks what its sender's format requires; `errors` has one message per bad field. The sender
 * is its name as a string: the normalizers that throw this are what the registry loads, so they cannot import it.
 */
export class PayloadError extends BadRequestError {
  constructor(
    readonly sender: string,
    errors: readonly string[],
  ) {
    super(`Invalid ${sender} payload`, errors);
  }
}

/** The body as `schema` reads it, or a PayloadError naming every bad field (`alerts.0.labels: ...`). */
export const parsePayload = <S extends z.ZodMiniType>(sender: string, schema: S, body: unknown): z.output<S> => {
  const result = schema.safeParse(body);
  if (!result.success) throw new PayloadError(sender, fieldMessages('body', result.error));
  return result.data;
};
