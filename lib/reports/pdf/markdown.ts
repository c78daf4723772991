import { printable } from './fonts.ts';
import { COLORS, NONE, truncate } from './format.ts';
import type { Content } from './content.ts';

/** Inline Markdown as the words a reader sees: links keep their address as text, code keeps its content. */
export const plainInline = (text: string): string =>
  text
    .split(/(`+[^`]*`+)/)
    .map((part, index) => {
      if (index % 2 === 1) return part.replace(/^`+\s?|\s?`+$/g, '');
      return part
        .replace(/!\[([^\]]*)\]\([^)]*\)/g, (_, alt: string) =>
          alt.trim() === '' ? '[image]' : `[image: ${alt.trim()}]`,
        )
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
export const markdownBlocks = (markdown: string): Block[] => {
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
      while (index < lines.length && !(lines[index] ?? '').trimStart().startsWith(marker))
        code.push(lines[index++] ?? '');
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
      while (index < lines.length && /^\s{0,3}>/.test(lines[index] ?? ''))
        quoted.push((lines[index++] ?? '').replace(/^\s{0,3}>\s?/, ''));
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
    paragraph.push(
      line.includes('|')
        ? line
            .trim()
            .replace(/^\||\|$/g, '')
            .split('|')
            .map((cell) => cell.trim())
            .join('  |  ')
        : line,
    );
    index += 1;
  }
  flush();
  return blocks;
};

/** The first line a reader would see of a Markdown text, for one-line summaries. */
export const firstLine = (markdown: string): string => {
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
export const fitsEasily = (texts: string[], charactersPerLine = 80, maxLines = 24): boolean => {
  const lines = texts.flatMap((text) => text.split('\n'));
  return lines.reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / charactersPerLine)), 0) <= maxLines;
};

/** A shaded box without rules: code blocks, badges, the requester's note. */
export const boxLayout = (fill: string, padding = 6) => ({
  fillColor: () => fill,
  hLineWidth: () => 0,
  vLineWidth: () => 0,
  paddingLeft: () => padding,
  paddingRight: () => padding,
  paddingTop: () => padding * 0.6,
  paddingBottom: () => padding * 0.6,
});

const blockContent = (block: Block): Content => {
  switch (block.kind) {
    case 'paragraph':
      return { text: printable(block.text), margin: [0, 0, 0, 6] };
    case 'heading':
      return { text: printable(block.text), bold: true, margin: [0, 2, 0, 4] };
    case 'quote':
      return { text: printable(block.text), italics: true, color: COLORS.muted, margin: [10, 0, 0, 6] };
    case 'code':
      return {
        table: {
          widths: ['*'],
          body: [[{ text: printable(block.text), fontSize: 8.5, preserveLeadingSpaces: true }]],
        },
        unbreakable: fitsEasily([block.text]),
        layout: boxLayout(COLORS.shade),
        margin: [0, 0, 0, 6],
      };
    case 'list':
      return listContent(block.list);
  }
};

export const markdownContent = (markdown: string | undefined): Content => {
  const blocks = markdown === undefined ? [] : markdownBlocks(markdown);
  if (blocks.length === 0) return { text: NONE, style: 'none' };
  return blocks.map(blockContent);
};
