/**
 * A readable fingerprint from the parts that identify a problem, joined with `|`; a `|` or `\` inside a part is
 * escaped, so different parts never give the same fingerprint.
 */
export const fingerprintOf = (...parts: (string | number)[]): string =>
  parts.map((part) => String(part).replace(/[\\|]/g, '\\$&')).join('|');
