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

const MANIFEST_TYPE = 'application/manifest+json';
const PNG_TYPE = 'image/png';

export type StaticFileName = `${string}.js` | `${string}.css` | `${string}.webmanifest` | `${string}.png`;

/** A static file's media type, by its extension: scripts, stylesheets, the console's web app manifest and icons. */
export const contentTypeOf = (file: StaticFileName): string => {
  if (file.endsWith('.css')) return STYLESHEET_TYPE;
  if (file.endsWith('.webmanifest')) return MANIFEST_TYPE;
  if (file.endsWith('.png')) return PNG_TYPE;
  return SCRIPT_TYPE;
};
