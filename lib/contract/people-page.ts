/**
 * The frame of every HTML page the service answers outside the console's app (the acknowledge page and its
 * errors, a not-found page): the console's colours, type and 44 px targets, inline, since these pages load no
 * script nor the console's files. `title` and `body` are HTML the caller built, outside text escaped already.
 */
const STYLE = [
  ':root{--ink:#1b1f24;--muted:#5b6470;--line:#d8dde3;--paper:#fff;--ground:#f3f5f7;--accent:#1f5fbf;',
  '--danger:#b42318;--ok:#067647;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;',
  'font-size:16px;line-height:1.45;color:var(--ink);background:var(--ground)}',
  '*{box-sizing:border-box}body{margin:0}',
  '.top{padding:.75rem 1rem;background:var(--ink);color:#fff;font-weight:600}',
  'main{max-width:30rem;margin:0 auto;padding:1rem}',
  '.card{background:var(--paper);border:1px solid var(--line);border-radius:.5rem;padding:.75rem 1rem;margin:1rem 0}',
  'h1{font-size:1.4rem;margin:.25rem 0 .75rem;overflow-wrap:anywhere}p{margin:.5rem 0;overflow-wrap:anywhere}',
  '.muted{color:var(--muted)}.problem{color:var(--danger)}.done{color:var(--ok)}a{color:var(--accent)}',
  'button,.button{display:inline-flex;align-items:center;justify-content:center;min-height:2.75rem;',
  'padding:.4rem 1rem;border:1px solid var(--accent);border-radius:.4rem;background:var(--accent);color:#fff;',
  'font:inherit;text-decoration:none;cursor:pointer;width:100%;margin:.5rem 0}',
  '.button.secondary{background:var(--paper);color:var(--accent)}',
].join('');

export const peoplePage = (title: string, body: string): string =>
  [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${title}</title>`,
    `<style>${STYLE}</style>`,
    `</head><body><header class="top">Incident console</header><main>${body}</main></body></html>`,
  ].join('\n');
