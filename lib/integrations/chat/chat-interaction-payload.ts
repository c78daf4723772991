import * as z from 'zod/mini';
import { BadRequestError } from '#lib/contract/errors.ts';
import { type ChatAction, isChatAction } from './chat-buttons.ts';

/** What of Slack's `block_actions` payload a press is read from; the rest is left alone. */
const pressSchema = z.object({
  type: z.literal('block_actions'),
  user: z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) }),
  response_url: z.optional(z.url({ protocol: /^https?$/ })),
  message: z.optional(z.object({ blocks: z.optional(z.array(z.unknown())) })),
  actions: z
    .array(z.object({ action_id: z.string(), value: z.optional(z.string()), action_ts: z.string() }))
    .check(z.minLength(1)),
});

export interface ChatPress {
  chatUserId: string;
  action: ChatAction;
  incidentId: string;
  /** The provider's id of this press, the same on a retry: what makes a retried interaction act once. */
  pressId: string;
  responseUrl: string | undefined;
  /** The message the button sat in, as the provider sent it back: the reply replaces it. */
  blocks: unknown[];
}

/** The press in a form-encoded `payload`; anything else (a button not ours, a malformed payload) is a 400. */
export const chatPressOf = (payload: string): ChatPress => {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    throw new BadRequestError('The interaction payload is not JSON', ['payload: not valid JSON']);
  }
  const parsed = pressSchema.safeParse(json);
  if (!parsed.success) {
    throw new BadRequestError('The interaction is not a button press', [
      ...parsed.error.issues.map((issue) => `payload.${issue.path.join('.')}: ${issue.message}`),
    ]);
  }
  const { user, actions, response_url: responseUrl, message } = parsed.data;
  const [press] = actions;
  if (!press || !isChatAction(press.action_id) || !press.value) {
    throw new BadRequestError('The interaction is not one of the incident buttons', [
      'payload.actions.0.action_id: must be acknowledge, resolve or escalate, with the incident id as its value',
    ]);
  }
  return {
    chatUserId: user.id,
    action: press.action_id,
    incidentId: press.value,
    pressId: `${user.id}#${press.action_ts}`,
    responseUrl,
    blocks: message?.blocks ?? [],
  };
};
