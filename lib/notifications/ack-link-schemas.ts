import * as z from 'zod/mini';

/**
 * The token of an acknowledge link, as the page's link carries it in the path. A module of its own: the
 * incidents route table imports it, and should not carry the notification schemas with it.
 */
export const ackTokenParams = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(2048)),
});
