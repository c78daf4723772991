/**
 * The media types the service answers with, one spelling each. Separate constants rather than one map, so
 * a bundle carries only those it uses: every function sends JSON, few send anything else.
 */
export const JSON_TYPE = 'application/json; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';
export const YAML_TYPE = 'application/yaml; charset=utf-8';
/** The docs' Markdown pages go as plain text, which every browser shows; it downloads `text/markdown` instead. */
export const TEXT_TYPE = 'text/plain; charset=utf-8';
const SCRIPT_TYPE = 'application/javascript; charset=utf-8';
const STYLESHEET_TYPE = 'text/css; charset=utf-8';

export type StaticFileName = `${string}.js` | `${string}.css`;

/** A static file's media type, by its extension: the service serves scripts and stylesheets. */
export const contentTypeOf = (file: StaticFileName): string => (file.endsWith('.css') ? STYLESHEET_TYPE : SCRIPT_TYPE);
