import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PDFTOPPM = '/usr/bin/pdftoppm';
const PDFTOTEXT = '/usr/bin/pdftotext';

/** poppler-utils, which `.ci/run` installs: the page checks run where it is, and are skipped elsewhere. */
export const hasPoppler = existsSync(PDFTOPPM) && existsSync(PDFTOTEXT);

/** A page as pdftoppm draws it: grey levels, one byte a pixel, row by row. */
export interface PageImage {
  width: number;
  height: number;
  pixels: Buffer;
}

export interface PdfPages {
  /** Each page's text as `pdftotext -layout` lays it out. */
  texts: string[];
  images: PageImage[];
}

/** A binary PGM (P5) as pdftoppm writes it with `-gray`. */
const readPgm = (file: Buffer): PageImage => {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(file.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('not a binary PGM');
  const [whole = '', width = '0', height = '0'] = header;
  return { width: Number(width), height: Number(height), pixels: file.subarray(whole.length) };
};

/** Renders every page to an image (at `dpi`) and reads its text, with poppler. */
export const renderPages = (pdf: Buffer, dpi = 40): PdfPages => {
  const directory = mkdtempSync(join(tmpdir(), 'report-pages-'));
  try {
    const file = join(directory, 'report.pdf');
    writeFileSync(file, pdf);
    execFileSync(PDFTOPPM, ['-gray', '-r', String(dpi), file, join(directory, 'page')]);
    const images = readdirSync(directory)
      .filter((name) => name.endsWith('.pgm'))
      .sort()
      .map((name) => readPgm(readFileSync(join(directory, name))));
    const text = execFileSync(PDFTOTEXT, ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    return { texts: text.split('\f').slice(0, images.length), images };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
};

/** The share of a band of rows (as fractions of the page's height) that is ink rather than paper. */
export const inkBetween = ({ width, height, pixels }: PageImage, top: number, bottom: number): number => {
  const [from, to] = [Math.floor(top * height), Math.ceil(bottom * height)];
  let ink = 0;
  for (let index = from * width; index < to * width; index += 1) if ((pixels[index] ?? 255) < 200) ink += 1;
  return ink / Math.max(1, (to - from) * width);
};

/** A page's lines of text, the running header and footer left out, blank ones too. */
export const bodyLines = (page: string): string[] =>
  page
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^Incident report · /.test(line) && !/^Generated .*Page \d+ of \d+$/.test(line));
