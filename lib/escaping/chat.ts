import { oneLine } from './control-characters.ts';

/**
 * Outside text for chat markup (Slack-compatible mrkdwn): `&`, `<` and `>` become entities, so no mention
 * (`<!channel>`, `<!here>`, `<@U…>`, `<#C…>`) and no link (`<url|text>`) can be written into a message; the chat
 * shows the characters as typed. On one line, so a title cannot forge a line of ours (an "Acknowledge" link).
 */
export const chatText = (text: string): string =>
  oneLine(text).replace(/[&<>]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[char] ?? char);
