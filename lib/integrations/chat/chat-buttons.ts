/**
 * The buttons a chat page carries (Slack Block Kit's `actions` block): each press comes back to
 * `POST /api/v1/integrations/chat/interactions` with its `action_id` and the incident's id as its `value`.
 */
const CHAT_ACTIONS = {
  acknowledge: 'Acknowledge',
  resolve: 'Resolve',
  escalate: 'Escalate',
} as const;

export type ChatAction = keyof typeof CHAT_ACTIONS;

export const isChatAction = (value: unknown): value is ChatAction =>
  typeof value === 'string' && Object.hasOwn(CHAT_ACTIONS, value);

/** The block of buttons for an incident still being worked on; `block_id` names the incident for the reply. */
export const chatButtons = (incidentId: string) => ({
  type: 'actions',
  block_id: `incident:${incidentId}`,
  elements: Object.entries(CHAT_ACTIONS).map(([action, label]) => ({
    type: 'button',
    action_id: action,
    value: incidentId,
    text: { type: 'plain_text', text: label },
    ...(action === 'acknowledge' && { style: 'primary' }),
    ...(action === 'escalate' && { style: 'danger' }),
  })),
});
