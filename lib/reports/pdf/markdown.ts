import { Lexer, type Token, type Tokens } from 'marked';
import { printable } from './fonts.ts';
import { COLORS, NONE, truncate } from './format.ts';
import type { Content } from './content.ts';

const words = (tokens: readonly Token[] | undefined): string => (tokens ?? []).map(inlineWords).join('');

/** One inline token as the words a reader sees: links keep their address as text, code keeps its content. */
const inlineWords = (token: Token): string => {
  switch (token.type) {
    case 'link': {
      // A bare address (GFM autolinks URLs and e-mail addresses) is its own text.
      const label = words(token.tokens);
      const bare = [label.trim(), `mailto:${label.trim()}`].includes(token.href);
      return bare ? label.trim() : `${label} (${token.href})`;
    }
    case 'image':
      return token.text.trim() === '' ? '[image]' : `[image: ${token.text.trim()}]`;
    case 'br':
      return '\n';
    case 'html':
      return /^<br\s*\/?>$/i.test(token.text.trim()) ? '\n' : '';
    case 'strong':
    case 'em':
    case 'del':
      return words(token.tokens);
    case 'text':
      return token.tokens ? words(token.tokens) : token.text;
    default:
      return 'text' in token && typeof token.text === 'string' ? token.text : token.raw;
  }
};

/** Inline Markdown as the words a reader sees. */
export const plainInline = (text: string): string => words(Lexer.lexInline(text));

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

const listOf = (list: Tokens.List): MarkdownList => ({
  ordered: list.ordered,
  start: list.ordered && typeof list.start === 'number' ? list.start : 1,
  items: list.items.map((item) => {
    const nested = item.tokens.find((token): token is Tokens.List => token.type === 'list');
    const text = blocksOf(item.tokens.filter((token) => token.type !== 'list'))
      .map(blockText)
      .join('\n');
    return { text, children: nested && listOf(nested) };
  }),
});

/** A table as lines of cells, which a reader can follow without the rules. */
const tableText = (table: Tokens.Table): string =>
  [table.header, ...table.rows].map((row) => row.map((cell) => words(cell.tokens)).join('  |  ')).join('\n');

const blockText = (block: Block): string =>
  block.kind === 'list' ? block.list.items.map((item) => item.text).join('\n') : block.text;

const blocksOf = (tokens: readonly Token[]): Block[] =>
  tokens.flatMap((token): Block[] => {
    switch (token.type) {
      case 'heading':
        return [{ kind: 'heading', text: words(token.tokens) }];
      case 'paragraph':
        return [{ kind: 'paragraph', text: words(token.tokens) }];
      case 'text':
        return [{ kind: 'paragraph', text: inlineWords(token) }];
      case 'blockquote':
        return [
          {
            kind: 'quote',
            text: blocksOf(token.tokens ?? [])
              .map(blockText)
              .join('\n'),
          },
        ];
      case 'code':
        return [{ kind: 'code', text: token.text }];
      case 'list':
        return [{ kind: 'list', list: listOf(token as Tokens.List) }];
      case 'table':
        return [{ kind: 'paragraph', text: tableText(token as Tokens.Table) }];
      case 'html': {
        const text = token.text.replace(/<\/?[a-zA-Z][^>]*>/g, '').trim();
        return text === '' ? [] : [{ kind: 'paragraph', text }];
      }
      default:
        return [];
    }
  });

/** Markdown as readable blocks: markup stripped, paragraphs, lists, quotes and code kept apart. */
export const markdownBlocks = (markdown: string): Block[] => blocksOf(Lexer.lex(markdown));

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
