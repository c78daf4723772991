/**
 * Marks of text written for engineers: a severity tag (`[HIGH]`), a raw timestamp, a ULID, an incident id, a
 * commit hash (hex with a digit and a letter, 7 to 40 long). Correlation writes them into the descriptions
 * of the incidents it opens; people outside engineering cannot read them.
 */
const ENGINEERING_MARKS = [
  /\[(CRITICAL|HIGH|MEDIUM|LOW)\]/,
  /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/,
  /\b[0-9A-HJKMNP-TV-Z]{26}\b/,
  /\bINC-\d{8}-\d+\b/,
  /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/,
];

/** Whether free text of the incident (a summary, a description) can be quoted to leadership and stakeholders. */
export const isPlainProse = (text: string): boolean => !ENGINEERING_MARKS.some((mark) => mark.test(text));
