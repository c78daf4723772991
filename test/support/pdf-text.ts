import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';

const PDFTOTEXT = '/usr/bin/pdftotext';

/**
 * The text of a PDF: poppler's `pdftotext` where installed, else a reader for what pdfkit writes
 * (Flate streams, Identity-H fonts whose ToUnicode maps give back the characters).
 */
export const textOf = (pdf: Buffer): string => (existsSync(PDFTOTEXT) ? popplerText(pdf) : pdfkitText(pdf));

const popplerText = (pdf: Buffer): string => {
  const directory = mkdtempSync(join(tmpdir(), 'incident-report-'));
  try {
    const file = join(directory, 'report.pdf');
    writeFileSync(file, pdf);
    return execFileSync(PDFTOTEXT, ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
};

export const pdfkitText = (pdf: Buffer): string => {
  const raw = pdf.toString('latin1');
  const objects = new Map<string, { dictionary: string; stream: string }>();
  for (const match of raw.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const [, id = '', body = ''] = match;
    const streamAt = body.indexOf('stream\n');
    const dictionary = streamAt < 0 ? body : body.slice(0, streamAt);
    let stream = streamAt < 0 ? '' : body.slice(streamAt + 7, body.lastIndexOf('\nendstream'));
    if (dictionary.includes('/FlateDecode')) stream = inflateSync(Buffer.from(stream, 'latin1')).toString('latin1');
    objects.set(id, { dictionary, stream });
  }
  const fonts = new Map<string, Map<number, string>>();
  for (const [, name = '', id = ''] of raw.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
    const toUnicode = /\/ToUnicode (\d+) 0 R/.exec(objects.get(id)?.dictionary ?? '')?.[1];
    const cmap = objects.get(toUnicode ?? '')?.stream ?? '';
    const codes = new Map<number, string>();
    for (const [, start = '0', list = ''] of cmap.matchAll(/<([0-9a-f]+)> <[0-9a-f]+> \[([^\]]*)\]/gi)) {
      [...list.matchAll(/<([0-9a-f ]+)>/gi)].forEach(([, units = ''], offset) => {
        const text = String.fromCharCode(...units.split(' ').map((unit) => Number.parseInt(unit, 16)));
        codes.set(Number.parseInt(start, 16) + offset, text);
      });
    }
    fonts.set(name, codes);
  }
  let text = '';
  for (const { stream } of objects.values()) {
    let font = new Map<number, string>();
    for (const [operation = '', name, strings = ''] of stream.matchAll(/\/(F\d+) [\d.]+ Tf|\[([^\]]*)\] TJ|ET/g)) {
      if (name !== undefined) font = fonts.get(name) ?? font;
      else if (operation === 'ET') text += '\n';
      else
        for (const [, hex = ''] of strings.matchAll(/<([0-9a-f]*)>/gi)) {
          for (let at = 0; at < hex.length; at += 4) text += font.get(Number.parseInt(hex.slice(at, at + 4), 16)) ?? '';
        }
    }
  }
  return text;
};

/** Whitespace-free text, so a phrase still matches where the PDF wrapped or split it into runs. */
export const squash = (text: string): string => text.replace(/[\s\u200B]+/g, '');
