import * as z from 'zod/mini';

/** What the signal store sends to the correlation queue for each new trigger signal, and the sweep again. */
export const correlationMessage = z.object({
  workspaceId: z.string().check(z.minLength(1)),
  signalId: z.string().check(z.minLength(1)),
});

export type CorrelationMessage = z.output<typeof correlationMessage>;

/** The message of a queue record; a body that is not one throws, so the record fails and ends in the dead-letter queue. */
export const parseCorrelationMessage = (body: string): CorrelationMessage => correlationMessage.parse(JSON.parse(body));
