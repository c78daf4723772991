import { oneLine } from './control-characters.ts';

/** Mail services refuse or fold longer subjects; a subject is read in a list, so it stays short. */
export const MAIL_SUBJECT_MAX = 150;

/**
 * Outside text for a mail subject: no control character (a CR/LF would inject a header or get the page
 * refused, which loses it), runs of spaces folded, capped at MAIL_SUBJECT_MAX characters.
 */
export const mailSubject = (text: string): string => {
  const line = oneLine(text).replace(/ {2,}/g, ' ').trim();
  return line.length > MAIL_SUBJECT_MAX ? `${line.slice(0, MAIL_SUBJECT_MAX - 1)}…` : line;
};

/**
 * Outside text for one line of a plain-text mail body: on one line, so a title cannot add lines that look
 * like ours ("Acknowledge: https://evil.example").
 */
export const mailBodyLine = (text: string): string => oneLine(text);
