import * as z from 'zod/mini';

/** The token of an outside address's confirmation link, as the link carries it in the path. */
export const confirmationTokenParams = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(2048)),
});

/** An address outside the members that an ADMIN named as a recipient, and whether it confirmed. */
export const outsideAddressData = z.object({
  address: z.string(),
  status: z
    .enum(['PENDING', 'CONFIRMED'])
    .check(z.describe('PENDING: mailed a confirmation link, sent nothing else; CONFIRMED: paged like a member')),
  namedAs: z.array(z.string()).check(z.describe('What it was named as, in words')),
  namedBy: z.string().check(z.describe('The ADMIN who named it last')),
  mailedAt: z.string().check(z.describe('When the last confirmation mail went out')),
  confirmedAt: z.optional(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
