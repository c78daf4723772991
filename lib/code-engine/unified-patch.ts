/**
 * The hunks of a unified diff as code host A's commit API gives them (`files[].patch`): parsed,
 * inverted (the revert of a commit is its patch the other way round), written back, and applied to a
 * file's text the way `patch` does, each hunk found by its lines near where its header says.
 */
type Op = ' ' | '-' | '+';

interface PatchLine {
  op: Op;
  text: string;
  /** Followed by `\ No newline at end of file`. */
  noNewline: boolean;
}

interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  section: string;
  lines: PatchLine[];
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

/** The hunks of a patch, or undefined when it is not one (a host truncating it, binary files). */
export const parseHunks = (patch: string): Hunk[] | undefined => {
  const hunks: Hunk[] = [];
  const rows = patch.split('\n');
  if (rows.at(-1) === '') rows.pop();
  for (const row of rows) {
    const header = HEADER.exec(row);
    const current = hunks.at(-1);
    if (header) {
      hunks.push({
        oldStart: Number(header[1]),
        oldCount: header[2] === undefined ? 1 : Number(header[2]),
        newStart: Number(header[3]),
        newCount: header[4] === undefined ? 1 : Number(header[4]),
        section: header[5] ?? '',
        lines: [],
      });
    } else if (current && row.startsWith('\\')) {
      const last = current.lines.at(-1);
      if (last) last.noNewline = true;
    } else if (current && (row[0] === ' ' || row[0] === '-' || row[0] === '+')) {
      current.lines.push({ op: row[0], text: row.slice(1), noNewline: false });
    } else if (current && row === '') {
      // Some hosts drop the space of an empty context line.
      current.lines.push({ op: ' ', text: '', noNewline: false });
    } else {
      return undefined;
    }
  }
  const counted = hunks.every(
    (hunk) =>
      hunk.lines.filter((line) => line.op !== '+').length === hunk.oldCount &&
      hunk.lines.filter((line) => line.op !== '-').length === hunk.newCount,
  );
  return hunks.length > 0 && counted ? hunks : undefined;
};

const SWAPPED: Record<Op, Op> = { ' ': ' ', '-': '+', '+': '-' };

/** Each run of changed lines as removals first, then additions: the order every diff tool writes. */
const conventionalOrder = (lines: PatchLine[]): PatchLine[] => {
  const ordered: PatchLine[] = [];
  let run: PatchLine[] = [];
  const flush = () => {
    ordered.push(...run.filter((line) => line.op === '-'), ...run.filter((line) => line.op === '+'));
    run = [];
  };
  for (const line of lines) {
    if (line.op === ' ') {
      flush();
      ordered.push(line);
    } else {
      run.push(line);
    }
  }
  flush();
  return ordered;
};

/** What undoes the hunks: old and new sides swapped. */
export const invertHunks = (hunks: Hunk[]): Hunk[] =>
  hunks.map((hunk) => ({
    oldStart: hunk.newStart,
    oldCount: hunk.newCount,
    newStart: hunk.oldStart,
    newCount: hunk.oldCount,
    section: hunk.section,
    lines: conventionalOrder(hunk.lines.map((line) => ({ ...line, op: SWAPPED[line.op] }))),
  }));

export const formatHunks = (hunks: Hunk[]): string =>
  hunks
    .flatMap((hunk) => [
      `@@ -${hunk.oldStart},${hunk.oldCount} +${hunk.newStart},${hunk.newCount} @@${hunk.section}`,
      ...hunk.lines.flatMap((line) => [
        `${line.op}${line.text}`,
        ...(line.noNewline ? ['\\ No newline at end of file'] : []),
      ]),
    ])
    .join('\n');

const sameLines = (lines: string[], at: number, expected: string[]): boolean =>
  expected.every((text, index) => lines[at + index] === text);

/** Where `expected` starts at or after `from`, the nearest to `near`; -1 when nowhere. */
const locate = (lines: string[], expected: string[], from: number, near: number): number => {
  const last = lines.length - expected.length;
  for (let distance = 0; near - distance >= from || near + distance <= last; distance += 1) {
    for (const at of [near - distance, near + distance]) {
      if (at >= from && at <= last && sameLines(lines, at, expected)) return at;
    }
  }
  return -1;
};

/** The text with the hunks applied, or undefined when a hunk's old lines are not in it (the file moved on). */
export const applyHunks = (text: string, hunks: Hunk[]): string | undefined => {
  const lines = text === '' ? [] : text.split('\n');
  // Lines written into an empty (new) file end with a newline unless the patch marks the last one.
  let trailingNewline = text === '' || text.endsWith('\n');
  if (trailingNewline) lines.pop();
  const result: string[] = [];
  let cursor = 0;
  let offset = 0;
  for (const hunk of hunks) {
    const oldSide = hunk.lines.filter((line) => line.op !== '+');
    const newSide = hunk.lines.filter((line) => line.op !== '-');
    // A hunk without old lines inserts after line `oldStart`; otherwise it starts at line `oldStart`.
    const expected = hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart - 1;
    const at = locate(
      lines,
      oldSide.map((line) => line.text),
      cursor,
      Math.max(cursor, expected + offset),
    );
    if (at < 0) return undefined;
    result.push(...lines.slice(cursor, at), ...newSide.map((line) => line.text));
    cursor = at + oldSide.length;
    offset = at - expected;
    if (cursor === lines.length) {
      if (newSide.at(-1)?.noNewline) trailingNewline = false;
      else if (oldSide.at(-1)?.noNewline) trailingNewline = true;
    }
  }
  result.push(...lines.slice(cursor));
  return result.join('\n') + (trailingNewline && result.length > 0 ? '\n' : '');
};
