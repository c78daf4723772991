// @ts-expect-error -- pdfmake 0.3 ships no type declarations; the part we use is typed as `PdfMake` below.
import untypedPdfmake from 'pdfmake';
// @ts-expect-error -- a CommonJS map of font file name to base64 TrueType data, untyped like pdfmake.
import untypedRobotoVfs from 'pdfmake/build/vfs_fonts.js';
import type { HistoryEvent } from '#lib/tickets/history.ts';
import type { IncidentReport } from './incident-report.ts';

/**
 * Renders an incident report as an A4 PDF a manager can read: title block, summary, fields, technical
 * description, a timeline of the thread and history, comments, the latest analysis and the caller's note.
 *
 * Fonts: Roboto from pdfmake's bundled virtual file system. It is plain JavaScript data, so esbuild
 * bundles it and nothing is read from disk at run time (the standard PDF fonts would need pdfkit's `.afm`
 * files shipped beside the bundle). Roboto covers Latin, Greek and Cyrillic; user text is reduced to what
 * it can draw (see `printable`), so no character becomes an empty box.
 *
 * Deterministic: the only time the renderer knows is the report's own timestamps, and the PDF's creation
 * date (which also seeds its file id) is `generatedAt`, so identical reports give identical bytes.
 */

type Content = string | Content[] | { [key: string]: unknown };

interface PdfMake {
  virtualfs: { writeFileSync(name: string, content: Buffer): void };
  addFonts(fonts: Record<string, Record<'normal' | 'bold' | 'italics' | 'bolditalics', string>>): void;
  setUrlAccessPolicy(policy: (url: string) => boolean): void;
  setLocalAccessPolicy(policy: (path: string) => boolean): void;
  createPdf(document: Record<string, unknown>): { getBuffer(): Promise<Buffer> };
}

const pdfmake = untypedPdfmake as PdfMake;
const robotoVfs = untypedRobotoVfs as Record<string, string>;

const FONT = 'Roboto';
const REGULAR_FILE = 'Roboto-Regular.ttf';
for (const [name, base64] of Object.entries(robotoVfs)) pdfmake.virtualfs.writeFileSync(name, Buffer.from(base64, 'base64'));
pdfmake.addFonts({
  [FONT]: { normal: REGULAR_FILE, bold: 'Roboto-Medium.ttf', italics: 'Roboto-Italic.ttf', bolditalics: 'Roboto-MediumItalic.ttf' },
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
          const indexed = rangeOffset === 0 ? code : font.readUInt16BE(rangeOffsetAt + rangeOffset + (code - start) * 2);
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
  '→': '->', '⟶': '->', '➔': '->', '➜': '->', '⇒': '=>', '←': '<-', '⇐': '<=', '↔': '<->', '✓': '', '\t': '    ',
};
/** Emoji and invisible joiners, marks and controls: drawn as nothing rather than as a missing-glyph box. */
const DROPPED = /^[\p{Extended_Pictographic}\p{Emoji_Component}\p{M}\p{Cf}\p{Cc}]$/u;

/** Text Roboto can draw: NFC (so accents are one glyph), substitutes, emoji dropped, the rest as U+FFFD. */
const printable = (text: string): string => {
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

const COLORS = {
  ink: '#1f2933',
  muted: '#616e7c',
  faint: '#9aa5b1',
  rule: '#d9dee4',
  shade: '#f3f5f7',
  accent: '#2f5f8a',
};

const STATUS_COLORS: Record<string, string> = {
  OPEN: '#c62828',
  ACKNOWLEDGED: '#d84315',
  INVESTIGATION: '#b45309',
  INVESTIGATING: '#b45309',
  IDENTIFIED: '#b45309',
  MITIGATED: '#1565c0',
  MONITORING: '#1565c0',
  RESOLVED: '#2e7d32',
  CLOSED: '#52606d',
};

const PRIORITY_COLORS: Record<string, string> = {
  P0: '#8e0000', P1: '#c62828', CRITICAL: '#c62828', SEV1: '#c62828',
  P2: '#d84315', HIGH: '#d84315', SEV2: '#d84315',
  P3: '#b45309', MEDIUM: '#b45309', MODERATE: '#b45309', SEV3: '#b45309',
  P4: '#1565c0', LOW: '#1565c0', SEV4: '#1565c0',
  P5: '#52606d', INFO: '#52606d', PLANNING: '#52606d',
};

const colorOf = (palette: Record<string, string>, value: string): string =>
  palette[value.trim().toUpperCase()] ?? '#3e4c59';

const NONE = 'None recorded';
const NO_VALUE = '—';

const pad = (value: number): string => String(value).padStart(2, '0');

/** ISO timestamps as `2024-05-01 14:03 UTC`, formatted by hand so no locale or time zone leaks in. */
const formatTime = (iso: string | undefined, withZone = true): string => {
  if (iso === undefined || iso === '') return NO_VALUE;
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return printable(iso);
  const text = `${time.getUTCFullYear()}-${pad(time.getUTCMonth() + 1)}-${pad(time.getUTCDate())} ${pad(time.getUTCHours())}:${pad(time.getUTCMinutes())}`;
  return withZone ? `${text} UTC` : text;
};

/** Elapsed time between two timestamps as `45 s`, `12 min`, `2 h 5 min` or `3 d 4 h`. */
const formatDuration = (fromIso: string | undefined, toIso: string | undefined): string => {
  if (fromIso === undefined || toIso === undefined) return NO_VALUE;
  const seconds = Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 1000);
  if (!Number.isFinite(seconds) || seconds < 0) return NO_VALUE;
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
};

/** Analyses report confidence either as a fraction or as a percentage; both read as a percentage. */
const formatConfidence = (confidence: number): string => {
  if (!Number.isFinite(confidence)) return NO_VALUE;
  const percent = confidence <= 1 ? confidence * 100 : confidence;
  return `${Math.round(Math.min(100, Math.max(0, percent)))}%`;
};

const truncate = (text: string, length: number): string => (text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text);

// ---- Markdown as plain text ----

/** Inline Markdown as the words a reader sees: links keep their address as text, code keeps its content. */
const plainInline = (text: string): string =>
  text
    .split(/(`+[^`]*`+)/)
    .map((part, index) => {
      if (index % 2 === 1) return part.replace(/^`+\s?|\s?`+$/g, '');
      return part
        .replace(/!\[([^\]]*)\]\([^)]*\)/g, (_, alt: string) => (alt.trim() === '' ? '[image]' : `[image: ${alt.trim()}]`))
        .replace(/\[([^\]]+)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g, (_, label: string, url: string) =>
          label.trim() === url ? url : `${label} (${url})`,
        )
        .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
        .replace(/<br\s*\/?>/gi, '\n')
        .replace(/<\/?[a-zA-Z][^>]*>/g, '')
        .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
        .replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?!\w)/g, '$1$2')
        .replace(/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g, '$1$2')
        .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
        .replace(/\\([\\`*_{}[\]()#+\-.!>~|])/g, '$1');
    })
    .join('');

interface ListItem {
  text: string;
  children: MarkdownList | undefined;
}
interface MarkdownList {
  ordered: boolean;
  start: number;
  items: ListItem[];
}
type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'quote'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'list'; list: MarkdownList };

const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const FENCE = /^\s{0,3}(```+|~~~+)/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;

/** Builds a nested list from consecutive list lines; indentation decides the nesting. */
const parseList = (lines: { indent: number; marker: string; text: string }[]): MarkdownList => {
  const first = lines[0];
  const ordered = first !== undefined && /\d/.test(first.marker);
  const list: MarkdownList = { ordered, start: ordered && first ? Number.parseInt(first.marker, 10) : 1, items: [] };
  const baseIndent = first?.indent ?? 0;
  let index = 0;
  while (index < lines.length) {
    const line = lines[index];
    if (line === undefined) break;
    const nested: typeof lines = [];
    index += 1;
    while (index < lines.length && (lines[index]?.indent ?? 0) > baseIndent) {
      const child = lines[index];
      if (child !== undefined) nested.push(child);
      index += 1;
    }
    list.items.push({ text: plainInline(line.text), children: nested.length > 0 ? parseList(nested) : undefined });
  }
  return list;
};

/** Markdown as readable blocks: markup stripped, paragraphs, lists, quotes and code kept apart. */
const markdownBlocks = (markdown: string): Block[] => {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: plainInline(paragraph.join('\n')) });
    paragraph = [];
  };
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    const fence = FENCE.exec(line);
    if (fence?.[1] !== undefined) {
      flush();
      const marker = fence[1];
      const code: string[] = [];
      index += 1;
      while (index < lines.length && !(lines[index] ?? '').trimStart().startsWith(marker)) code.push(lines[index++] ?? '');
      index += 1;
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    if (line.trim() === '' || RULE.test(line)) {
      flush();
      index += 1;
      continue;
    }
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', text: plainInline(heading[1] ?? '') });
      index += 1;
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      flush();
      const quoted: string[] = [];
      while (index < lines.length && /^\s{0,3}>/.test(lines[index] ?? '')) quoted.push((lines[index++] ?? '').replace(/^\s{0,3}>\s?/, ''));
      blocks.push({ kind: 'quote', text: plainInline(quoted.join('\n')) });
      continue;
    }
    if (LIST_ITEM.test(line)) {
      flush();
      const items: { indent: number; marker: string; text: string }[] = [];
      while (index < lines.length) {
        const current = lines[index] ?? '';
        const item = LIST_ITEM.exec(current);
        if (item) items.push({ indent: (item[1] ?? '').length, marker: item[2] ?? '-', text: item[3] ?? '' });
        else if (current.trim() !== '' && /^\s+/.test(current) && items.length > 0) {
          const last = items[items.length - 1];
          if (last) last.text += `\n${current.trim()}`;
        } else break;
        index += 1;
      }
      blocks.push({ kind: 'list', list: parseList(items) });
      continue;
    }
    if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line) && line.includes('|')) {
      index += 1;
      continue;
    }
    paragraph.push(line.includes('|') ? line.trim().replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim()).join('  |  ') : line);
    index += 1;
  }
  flush();
  return blocks;
};

/** The first line a reader would see of a Markdown text, for one-line summaries. */
const firstLine = (markdown: string): string => {
  for (const block of markdownBlocks(markdown)) {
    const text = block.kind === 'list' ? (block.list.items[0]?.text ?? '') : block.text;
    const line = text.split('\n').find((candidate) => candidate.trim() !== '');
    if (line !== undefined) return truncate(line.trim(), 140);
  }
  return '';
};

const listContent = (list: MarkdownList, nested = false): Content => {
  const items = list.items.map((item) =>
    item.children ? { stack: [printable(item.text), listContent(item.children, true)] } : printable(item.text),
  );
  const margin = [0, 0, 0, nested ? 0 : 6];
  return list.ordered ? { ol: items, start: list.start, margin } : { ul: items, margin };
};

/**
 * Whether text surely fits well within a page, estimated from its length: pdfmake keeps only the first
 * page of an `unbreakable` block, so a block is kept together only when it cannot overflow.
 */
const fitsEasily = (texts: string[], charactersPerLine = 80, maxLines = 24): boolean => {
  const lines = texts.flatMap((text) => text.split('\n'));
  return lines.reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / charactersPerLine)), 0) <= maxLines;
};

/** A shaded box without rules: code blocks, badges, the requester's note. */
const boxLayout = (fill: string, padding = 6) => ({
  fillColor: () => fill,
  hLineWidth: () => 0,
  vLineWidth: () => 0,
  paddingLeft: () => padding,
  paddingRight: () => padding,
  paddingTop: () => padding * 0.6,
  paddingBottom: () => padding * 0.6,
});

const markdownContent = (markdown: string | undefined): Content => {
  const blocks = markdown === undefined ? [] : markdownBlocks(markdown);
  if (blocks.length === 0) return { text: NONE, style: 'none' };
  return blocks.map((block): Content => {
    switch (block.kind) {
      case 'paragraph':
        return { text: printable(block.text), margin: [0, 0, 0, 6] };
      case 'heading':
        return { text: printable(block.text), bold: true, margin: [0, 2, 0, 4] };
      case 'quote':
        return { text: printable(block.text), italics: true, color: COLORS.muted, margin: [10, 0, 0, 6] };
      case 'code':
        return {
          table: { widths: ['*'], body: [[{ text: printable(block.text), fontSize: 8.5, preserveLeadingSpaces: true }]] },
          unbreakable: fitsEasily([block.text]),
          layout: boxLayout(COLORS.shade),
          margin: [0, 0, 0, 6],
        };
      case 'list':
        return listContent(block.list);
    }
  });
};

// ---- Building blocks ----

const badge = (label: string, value: string, color: string): Content => ({
  width: 'auto',
  table: {
    body: [[{ text: [{ text: `${label}  `, fontSize: 7.5 }, { text: printable(value.toUpperCase()), bold: true }], color: '#ffffff', fontSize: 9.5 }]],
  },
  layout: boxLayout(color, 7),
});

/** Section headings stay with what follows them (see `pageBreakBefore`). */
const heading = (title: string): Content => ({ text: title, style: 'heading', headlineLevel: 1 });

const section = (title: string, body: Content): Content => ({ stack: [heading(title), body], margin: [0, 14, 0, 0] });

const labelled = (label: string, body: Content): Content => ({
  stack: [{ text: label.toUpperCase(), style: 'label', headlineLevel: 2 }, body],
  margin: [0, 0, 0, 8],
});

const textOrNone = (text: string | undefined): Content =>
  text === undefined || text.trim() === '' ? { text: NONE, style: 'none' } : markdownContent(text);

const titleBlock = (report: IncidentReport): Content => {
  const { incident } = report;
  const meta = (label: string, value: string): Content => ({
    stack: [{ text: label, style: 'label' }, { text: printable(value), fontSize: 10 }],
  });
  return {
    stack: [
      { text: 'INCIDENT REPORT', fontSize: 8.5, bold: true, color: COLORS.accent, characterSpacing: 1.2 },
      { text: printable(incident.summary) || NO_VALUE, fontSize: 19, bold: true, margin: [0, 4, 0, 8], lineHeight: 1.1 },
      {
        columns: [badge('STATUS', incident.status, colorOf(STATUS_COLORS, incident.status)), badge('PRIORITY', incident.priority, colorOf(PRIORITY_COLORS, incident.priority))],
        columnGap: 8,
      },
      {
        columns: [meta('Incident', incident.id), meta('Workspace', report.workspaceName), meta('Generated', formatTime(report.generatedAt))],
        columnGap: 12,
        margin: [0, 12, 0, 0],
      },
      { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 515, y2: 0, lineWidth: 0.8, lineColor: COLORS.rule }], margin: [0, 10, 0, 0] },
    ],
  };
};

const noteBlock = (note: string | undefined): Content[] => {
  if (note === undefined || note.trim() === '') return [];
  return [
    {
      table: { widths: ['*'], body: [[{ stack: [{ text: 'NOTE FROM THE REQUESTER', style: 'label', color: COLORS.accent }, markdownContent(note)] }]] },
      layout: { ...boxLayout('#eef4fa', 9), vLineWidth: (index: number) => (index === 0 ? 3 : 0), vLineColor: () => COLORS.accent },
      margin: [0, 12, 0, 0],
    },
  ];
};

const summarySection = (incident: IncidentReport['incident']): Content =>
  section('Summary', [
    labelled('Description for customers', textOrNone(incident.description)),
    labelled('Impact', textOrNone(incident.impactSummary)),
    labelled('Blast radius', textOrNone(incident.blastRadius)),
  ]);

const fieldsSection = (incident: IncidentReport['incident']): Content => {
  const value = (text: string | undefined): string => (text === undefined || text.trim() === '' ? NO_VALUE : printable(text));
  const pairs: [string, string][][] = [
    [['Source', value(incident.source)], ['Created', formatTime(incident.createdAt)]],
    [['Service area', value(incident.serviceArea)], ['Acknowledged', formatTime(incident.acknowledgedAt)]],
    [['Environment', value(incident.environment)], ['Resolved', formatTime(incident.resolvedAt)]],
    [['Region', value(incident.region)], ['Time to acknowledge', formatDuration(incident.createdAt, incident.acknowledgedAt)]],
    [['Assignee', value(incident.assignedToEmail)], ['Time to resolve', formatDuration(incident.createdAt, incident.resolvedAt)]],
  ];
  if (incident.updatedAt !== undefined) pairs.push([['', ''], ['Last updated', formatTime(incident.updatedAt)]]);
  return section('Details', {
    fontSize: 9.5,
    table: {
      widths: [78, '*', 104, '*'],
      body: pairs.map((row) => row.flatMap(([label, text]) => [{ text: label, style: 'fieldLabel' }, { text }])),
    },
    layout: {
      hLineWidth: (index: number, node: { table: { body: unknown[] } }) => (index === 0 || index === node.table.body.length ? 0 : 0.5),
      vLineWidth: () => 0,
      hLineColor: () => COLORS.rule,
      paddingTop: () => 4,
      paddingBottom: () => 4,
      paddingLeft: (index: number) => (index === 2 ? 14 : 0),
    },
  });
};

// ---- Timeline ----

interface TimelineEntry {
  at: string;
  actor: string;
  what: string;
  order: number;
}

const changeOf = (from: string | null | undefined, to: string | null | undefined): string => {
  const before = from === undefined || from === null || from === '' ? 'none' : truncate(from, 80);
  const after = to === undefined || to === null || to === '' ? 'none' : truncate(to, 80);
  return `${before} -> ${after}`;
};

/** One line per history event, in the words of someone reading the audit trail. */
const describeEvent = (event: HistoryEvent): string => {
  const note = event.message !== undefined && event.message.trim() !== '' ? firstLine(event.message) : '';
  const withNote = (text: string): string => (note === '' ? text : `${text}: ${note}`);
  switch (event.event) {
    case 'CREATED':
      return withNote('Incident created');
    case 'STATUS_CHANGE':
      return withNote(`Status ${changeOf(event.from, event.to)}`);
    case 'COMMENT_ADDED':
      return note === '' ? 'Comment added' : `Comment: ${note}`;
    case 'ASSIGNED':
      return event.to === undefined || event.to === null || event.to === ''
        ? withNote(event.from ? `Unassigned (was ${event.from})` : 'Unassigned')
        : withNote(`Assigned to ${event.to}`);
    case 'PRIORITY_CHANGE':
      return withNote(`Priority ${changeOf(event.from, event.to)}`);
    case 'RESOLVED':
      return withNote('Resolved');
    case 'FIELD_CHANGE':
      return withNote(`${event.field ?? 'Field'} changed: ${changeOf(event.from, event.to)}`);
    case 'SIGNAL_LINKED':
      return withNote(event.to ? `Signal linked: ${event.to}` : 'Signal linked');
    case 'DELETED':
      return withNote('Deleted');
  }
};

/** Sort key: unparsable timestamps go last, keeping their input order. */
const timeOf = (iso: string): number => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
};

const timelineEntries = (report: IncidentReport): TimelineEntry[] => {
  const entries: TimelineEntry[] = [
    ...report.history.map((event, order) => ({ at: event.timestamp, actor: event.actor, what: describeEvent(event), order })),
    ...report.messages.map((message, order) => ({
      at: message.createdAt,
      actor: message.actor,
      what: markdownBlocks(message.text).map((block) => (block.kind === 'list' ? block.list.items.map((item) => `- ${item.text}`).join('\n') : block.text)).join('\n'),
      order: report.history.length + order,
    })),
  ];
  return entries.sort((a, b) => timeOf(a.at) - timeOf(b.at) || a.order - b.order);
};

const timelineSection = (report: IncidentReport): Content => {
  const entries = timelineEntries(report);
  if (entries.length === 0) return section('Timeline', { text: NONE, style: 'none' });
  const header = ['Time (UTC)', 'Actor', 'What happened'].map((text) => ({ text, style: 'tableHeader' }));
  return section('Timeline', {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: [74, 120, '*'],
      body: [
        header,
        ...entries.map((entry) => [
          { text: formatTime(entry.at, false), color: COLORS.muted, noWrap: true },
          { text: printable(entry.actor) || NO_VALUE },
          { text: printable(entry.what) || NO_VALUE },
        ]),
      ],
    },
    fontSize: 8.5,
    layout: {
      hLineWidth: (index: number) => (index === 1 ? 0.8 : 0),
      vLineWidth: () => 0,
      hLineColor: () => COLORS.faint,
      fillColor: (row: number) => (row > 0 && row % 2 === 0 ? COLORS.shade : null),
      paddingTop: () => 3,
      paddingBottom: () => 3,
      paddingLeft: (index: number) => (index === 0 ? 4 : 6),
      paddingRight: () => 4,
    },
  });
};

// ---- Comments and analysis ----

const commentsSection = (comments: IncidentReport['comments']): Content => {
  if (comments.length === 0) return section('Comments', { text: NONE, style: 'none' });
  const ordered = comments
    .map((comment, order) => ({ comment, order, time: timeOf(comment.createdAt) }))
    .sort((a, b) => a.time - b.time || a.order - b.order);
  return section(
    'Comments',
    ordered.map(({ comment }, index): Content => ({
      stack: [
        {
          text: [{ text: printable(comment.authorEmail) || NO_VALUE, bold: true }, { text: `   ${formatTime(comment.createdAt)}`, color: COLORS.muted, fontSize: 8.5 }],
          headlineLevel: 2,
          margin: [0, 0, 0, 3],
        },
        markdownContent(comment.content),
        ...(index < ordered.length - 1
          ? [{ canvas: [{ type: 'line', x1: 0, y1: 0, x2: 515, y2: 0, lineWidth: 0.5, lineColor: COLORS.rule }], margin: [0, 2, 0, 8] }]
          : []),
      ],
    })),
  );
};

const analysisSection = (analysis: IncidentReport['analysis']): Content => {
  if (analysis === undefined) return section('Latest analysis', { text: NONE, style: 'none' });
  const list = (items: string[], ordered: boolean): Content => {
    const cleaned = items.filter((item) => item.trim() !== '').map((item) => printable(plainInline(item)));
    if (cleaned.length === 0) return { text: NONE, style: 'none' };
    const margin = [0, 0, 0, 2];
    return { ...(ordered ? { ol: cleaned } : { ul: cleaned }), margin, unbreakable: fitsEasily(cleaned) };
  };
  return section('Latest analysis', [
    {
      text: [
        { text: 'Confidence ', color: COLORS.muted },
        { text: formatConfidence(analysis.confidence), bold: true },
        { text: `   ·   completed ${formatTime(analysis.completedAt)}`, color: COLORS.muted },
      ],
      margin: [0, 0, 0, 8],
    },
    labelled('Hypothesis', textOrNone(analysis.hypothesis)),
    labelled('Root cause', textOrNone(analysis.rootCause)),
    labelled('Impact', textOrNone(analysis.impactAssessment)),
    labelled('Contributing factors', list(analysis.contributingFactors, false)),
    labelled('Remediation options, in order', list(analysis.remediationOptions, true)),
  ]);
};

// ---- Document ----

interface LaidOutNode {
  headlineLevel?: number;
  canvas?: unknown;
  startPosition?: { verticalRatio?: number };
}

/**
 * Where a section heading starts lower than this share of the page, too little room is left for what it
 * introduces, so it starts the next page instead of standing alone at the bottom.
 */
const SECTION_HEADING_LOWEST_START = 0.88;

/** A heading or comment header with nothing after it on its page moves to the next page. */
const keepWithNext = (node: LaidOutNode, nodes: { getFollowingNodesOnPage(): LaidOutNode[] }): boolean => {
  if (node.headlineLevel === undefined) return false;
  if (node.headlineLevel === 1 && (node.startPosition?.verticalRatio ?? 0) > SECTION_HEADING_LOWEST_START) return true;
  return nodes.getFollowingNodesOnPage().every((following) => following.canvas !== undefined);
};

const documentOf = (report: IncidentReport): Record<string, unknown> => {
  const { incident } = report;
  const created = new Date(report.generatedAt);
  const generated = formatTime(report.generatedAt);
  return {
    pageSize: 'A4',
    pageMargins: [40, 54, 40, 46],
    info: {
      title: printable(`Incident report ${incident.id}: ${incident.summary}`),
      subject: 'Incident report',
      author: printable(report.workspaceName),
      creator: 'Incident service',
      producer: 'Incident service (pdfmake)',
      // Without a date pdfkit stamps the current time; an unparsable one falls back to the epoch so the
      // bytes stay a function of the input.
      creationDate: Number.isNaN(created.getTime()) ? new Date(0) : created,
    },
    header: () => ({
      columns: [
        { text: printable(`Incident report · ${incident.id}`), bold: true },
        { text: printable(report.workspaceName), alignment: 'right' },
      ],
      fontSize: 8,
      color: COLORS.muted,
      margin: [40, 24, 40, 0],
    }),
    footer: (page: number, pages: number) => ({
      columns: [{ text: `Generated ${generated}` }, { text: `Page ${page} of ${pages}`, alignment: 'right' }],
      fontSize: 8,
      color: COLORS.muted,
      margin: [40, 16, 40, 0],
    }),
    pageBreakBefore: keepWithNext,
    defaultStyle: { font: FONT, fontSize: 10, lineHeight: 1.25, color: COLORS.ink },
    styles: {
      heading: { fontSize: 13, bold: true, color: COLORS.accent, margin: [0, 0, 0, 6] },
      label: { fontSize: 7.5, bold: true, color: COLORS.muted, characterSpacing: 0.6, margin: [0, 0, 0, 2] },
      fieldLabel: { color: COLORS.muted },
      tableHeader: { bold: true, color: COLORS.muted, fontSize: 8 },
      none: { italics: true, color: COLORS.faint },
    },
    content: [
      titleBlock(report),
      ...noteBlock(report.note),
      summarySection(incident),
      fieldsSection(incident),
      section('Technical description', textOrNone(incident.techDescription)),
      timelineSection(report),
      commentsSection(report.comments),
      analysisSection(report.analysis),
    ],
  };
};

export const renderIncidentReportPdf = (report: IncidentReport): Promise<Buffer> =>
  pdfmake.createPdf(documentOf(report)).getBuffer();
