// @ts-expect-error -- pdfmake 0.3 ships no type declarations; the part we use is typed as `PdfMake` below.
import untypedPdfmake from 'pdfmake';
// @ts-expect-error -- a CommonJS map of font file name to base64 TrueType data, untyped like pdfmake.
import untypedRobotoVfs from 'pdfmake/build/vfs_fonts.js';

/**
 * Fonts: Roboto from pdfmake's bundled virtual file system. It is plain JavaScript data, so esbuild
 * bundles it and nothing is read from disk at run time (the standard PDF fonts would need pdfkit's `.afm`
 * files shipped beside the bundle). Roboto covers Latin, Greek and Cyrillic; user text is reduced to what
 * it can draw (see `printable`), so no character becomes an empty box.
 */

interface PdfMake {
  virtualfs: { writeFileSync(name: string, content: Buffer): void };
  addFonts(fonts: Record<string, Record<'normal' | 'bold' | 'italics' | 'bolditalics', string>>): void;
  setUrlAccessPolicy(policy: (url: string) => boolean): void;
  setLocalAccessPolicy(policy: (path: string) => boolean): void;
  createPdf(document: Record<string, unknown>): { getBuffer(): Promise<Buffer> };
}

export const pdfmake = untypedPdfmake as PdfMake;
const robotoVfs = untypedRobotoVfs as Record<string, string>;

export const FONT = 'Roboto';
const REGULAR_FILE = 'Roboto-Regular.ttf';
for (const [name, base64] of Object.entries(robotoVfs))
  pdfmake.virtualfs.writeFileSync(name, Buffer.from(base64, 'base64'));
pdfmake.addFonts({
  [FONT]: {
    normal: REGULAR_FILE,
    bold: 'Roboto-Medium.ttf',
    italics: 'Roboto-Italic.ttf',
    bolditalics: 'Roboto-MediumItalic.ttf',
  },
});
// Everything the report needs is in memory: user Markdown can never make it fetch a URL or read a file.
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy(() => false);

/** The code points a TrueType font maps to a glyph, from its format 4 (BMP) or 12 (full) cmap subtable. */
const codePointsOf = (font: Buffer): Set<number> => {
  const covered = new Set<number>();
  const tableCount = font.readUInt16BE(4);
  let cmap = -1;
  for (let index = 0; index < tableCount; index += 1) {
    const record = 12 + index * 16;
    if (font.toString('latin1', record, record + 4) === 'cmap') cmap = font.readUInt32BE(record + 8);
  }
  if (cmap < 0) return covered;
  const subtableCount = font.readUInt16BE(cmap + 2);
  for (let index = 0; index < subtableCount; index += 1) {
    const platform = font.readUInt16BE(cmap + 4 + index * 8);
    const subtable = cmap + font.readUInt32BE(cmap + 8 + index * 8);
    const format = font.readUInt16BE(subtable);
    if (platform === 1) continue;
    if (format === 4) {
      const segments = font.readUInt16BE(subtable + 6) / 2;
      const ends = subtable + 14;
      const starts = ends + segments * 2 + 2;
      const deltas = starts + segments * 2;
      const rangeOffsets = deltas + segments * 2;
      for (let segment = 0; segment < segments; segment += 1) {
        const end = font.readUInt16BE(ends + segment * 2);
        const start = font.readUInt16BE(starts + segment * 2);
        const delta = font.readUInt16BE(deltas + segment * 2);
        const rangeOffsetAt = rangeOffsets + segment * 2;
        const rangeOffset = font.readUInt16BE(rangeOffsetAt);
        for (let code = start; code <= end && code !== 0xffff; code += 1) {
          const indexed =
            rangeOffset === 0 ? code : font.readUInt16BE(rangeOffsetAt + rangeOffset + (code - start) * 2);
          if (indexed !== 0 && (indexed + delta) % 0x10000 !== 0) covered.add(code);
        }
      }
    } else if (format === 12) {
      const groups = font.readUInt32BE(subtable + 12);
      for (let group = 0; group < groups; group += 1) {
        const at = subtable + 16 + group * 12;
        const start = font.readUInt32BE(at);
        const end = font.readUInt32BE(at + 4);
        for (let code = start; code <= end; code += 1) covered.add(code);
      }
    }
  }
  return covered;
};

const REGULAR_BASE64 = robotoVfs[REGULAR_FILE];
if (REGULAR_BASE64 === undefined) throw new Error(`pdfmake's font bundle has no ${REGULAR_FILE}`);
/** Roboto's four styles cover the same characters, so the regular one speaks for all. */
const DRAWABLE = codePointsOf(Buffer.from(REGULAR_BASE64, 'base64'));

/** Look-alikes for characters people type that Roboto lacks. */
const SUBSTITUTES: Record<string, string> = {
  '→': '->',
  '⟶': '->',
  '➔': '->',
  '➜': '->',
  '⇒': '=>',
  '←': '<-',
  '⇐': '<=',
  '↔': '<->',
  '✓': '',
  '\t': '    ',
};
/** Emoji and invisible joiners, marks and controls: drawn as nothing rather than as a missing-glyph box. */
const DROPPED = /^[\p{Extended_Pictographic}\p{Emoji_Component}\p{M}\p{Cf}\p{Cc}]$/u;

/** Text Roboto can draw: NFC (so accents are one glyph), substitutes, emoji dropped, the rest as U+FFFD. */
export const printable = (text: string): string => {
  let out = '';
  // After a dropped character that followed a space, the next space would double it.
  let droppedAfterSpace = false;
  for (const character of text.normalize('NFC')) {
    const code = character.codePointAt(0) ?? 0;
    const substitute = SUBSTITUTES[character];
    if (character === ' ' && droppedAfterSpace) continue;
    if (character === '\n' || DRAWABLE.has(code)) out += character;
    else if (substitute !== undefined && substitute !== '') out += printable(substitute);
    else if (substitute === '' || DROPPED.test(character)) {
      droppedAfterSpace ||= out === '' || out.endsWith(' ');
      continue;
    } else out += '\uFFFD';
    droppedAfterSpace = false;
  }
  // Break opportunities in very long tokens (URLs, hashes, stack frames), which would otherwise overflow.
  return out.replace(/\S{40,}/g, (token) => token.replace(/(.{30})/gu, '$1\u200B'));
};
