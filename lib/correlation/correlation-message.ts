import * as z from 'zod/mini';

/**
 * What the correlation queue carries: `correlate` for each new trigger signal (the signal store, and the
 * sweep again), `resolved` for a signal of an incident that has just resolved (a sender's resolving event
 * or the resolve route), whose incident may now have every signal resolved, `acknowledged` for a signal of an
 * incident that its sender acknowledged (a paging tool's event API), whose OPEN incident follows. Messages sent before `kind`
 * existed are `correlate`.
 */
const correlationMessage = z.object({
  workspaceId: z.string().check(z.minLength(1)),
  signalId: z.string().check(z.minLength(1)),
  kind: z._default(z.enum(['correlate', 'resolved', 'acknowledged']), 'correlate'),
});

export type CorrelationMessage = z.output<typeof correlationMessage>;

/** The message of a queue record; a body that is not one throws, so the record fails and ends in the dead-letter queue. */
export const parseCorrelationMessage = (body: string): CorrelationMessage => correlationMessage.parse(JSON.parse(body));
