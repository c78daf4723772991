import { oneLine } from './control-characters.ts';

/** Outside text for an SMS: plain text on one line, cut to `max` characters with an ellipsis. */
export const smsText = (text: string, max: number): string => {
  const line = oneLine(text).replace(/ {2,}/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};
