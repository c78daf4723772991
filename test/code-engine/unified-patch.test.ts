import { describe, expect, it } from 'vitest';
import { applyHunks, formatHunks, invertHunks, parseHunks } from '#lib/code-engine/unified-patch.ts';

const revert = (patch: string, text: string): string | undefined => {
  const hunks = parseHunks(patch);
  if (!hunks) throw new Error('not a patch');
  return applyHunks(text, invertHunks(hunks));
};

describe('unified patches', () => {
  it('inverts a hunk with removals written before additions', () => {
    const hunks = parseHunks('@@ -1,2 +1,3 @@ fn\n a\n-b\n+c\n+d');
    expect(hunks && formatHunks(invertHunks(hunks))).toBe('@@ -1,3 +1,2 @@ fn\n a\n-c\n-d\n+b');
  });

  it('finds a hunk moved by lines added above it since the commit', () => {
    const patch = '@@ -2,3 +2,3 @@\n two\n-three\n+THREE\n four';
    expect(revert(patch, 'zero\none\ntwo\nTHREE\nfour\n')).toBe('zero\none\ntwo\nthree\nfour\n');
  });

  it('refuses when the lines the commit wrote are gone', () => {
    expect(revert('@@ -1 +1 @@\n-a\n+b', 'c\n')).toBeUndefined();
  });

  it('keeps the end-of-file newline as the commit found it', () => {
    const patch = '@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b';
    expect(revert(patch, 'b\n')).toBe('a');
  });

  it('reads an empty context line written without its leading space', () => {
    expect(revert('@@ -1,3 +1,3 @@\n a\n\n-b\n+c', 'a\n\nc\n')).toBe('a\n\nb\n');
  });

  it('recreates a removed file from its lines', () => {
    expect(revert('@@ -1,2 +0,0 @@\n-x\n-y', '')).toBe('x\ny\n');
  });

  it('is not a patch when counts disagree with the lines or a line has no marker', () => {
    expect(parseHunks('@@ -1,2 +1,2 @@\n a\n-b')).toBeUndefined();
    expect(parseHunks('Binary files differ')).toBeUndefined();
  });
});
