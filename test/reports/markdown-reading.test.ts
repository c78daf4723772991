import { describe, expect, it } from 'vitest';
import { firstLine, markdownBlocks, plainInline } from '#lib/reports/pdf/markdown.ts';

describe('Markdown in a report, as a reader sees it', () => {
  it('keeps the words of inline markup, link addresses as text and bare addresses once', () => {
    expect(plainInline('**Bold**, _it_, ~~gone~~, \\*kept\\*, `a<b>` and ![disk graph](d.png) ![](e.png)')).toBe(
      'Bold, it, gone, *kept*, a<b> and [image: disk graph] [image]',
    );
    expect(plainInline('See [the runbook](https://run.book/x), <https://a.example> or ada@acme.example')).toBe(
      'See the runbook (https://run.book/x), https://a.example or ada@acme.example',
    );
  });

  it('splits a text into headings, paragraphs, nested lists, quotes, code and tables', () => {
    const blocks = markdownBlocks(
      '# Cause\n\nDisk full<br>on es-7\n\n- freed space\n  - 200 GB\n- raised watermark\n\n3. page\n4. fix\n\n' +
        '> customer view\n> stayed up\n\n```sh\ndf -h\n```\n\n| node | free |\n|---|---|\n| es-7 | 2% |\n\n---\n',
    );
    expect(blocks).toEqual([
      { kind: 'heading', text: 'Cause' },
      { kind: 'paragraph', text: 'Disk full\non es-7' },
      {
        kind: 'list',
        list: {
          ordered: false,
          start: 1,
          items: [
            {
              text: 'freed space',
              children: { ordered: false, start: 1, items: [{ text: '200 GB', children: undefined }] },
            },
            { text: 'raised watermark', children: undefined },
          ],
        },
      },
      {
        kind: 'list',
        list: {
          ordered: true,
          start: 3,
          items: [
            { text: 'page', children: undefined },
            { text: 'fix', children: undefined },
          ],
        },
      },
      { kind: 'quote', text: 'customer view\nstayed up' },
      { kind: 'code', text: 'df -h' },
      { kind: 'paragraph', text: 'node  |  free\nes-7  |  2%' },
    ]);
  });

  it('summarises a text by the first line a reader would see', () => {
    expect(firstLine('\n\n- first item\n- second')).toBe('first item');
    expect(firstLine('')).toBe('');
  });
});
