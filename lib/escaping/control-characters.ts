/**
 * C0/C1 controls, DEL, the Unicode line and paragraph separators and the bidirectional overrides: none of them
 * is text a reader needs from outside, and each can break a line, a header or the order a reader sees.
 */
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]+/gu;

/** Outside text on one line: every run of controls (CR/LF included) becomes one space. */
export const oneLine = (text: string): string => text.replace(CONTROL, ' ');
