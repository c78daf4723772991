/** The media types the service answers with, one spelling each. */
export const CONTENT_TYPES = {
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  yaml: 'application/yaml; charset=utf-8',
  js: 'application/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
} as const;

export type StaticFileName = `${string}.js` | `${string}.css`;

/** A static file's media type, by its extension: the service serves scripts and stylesheets. */
export const contentTypeOf = (file: StaticFileName): string =>
  file.endsWith('.css') ? CONTENT_TYPES.css : CONTENT_TYPES.js;
