import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as z from 'zod/mini';
import { NotFoundError } from '#lib/contract/errors.ts';

/**
 * The project's Markdown documentation, which the docs page links to (its introduction, the decisions and
 * the pages those link): `docs/*.md` and `docs/spec/*.md`. The build copies them beside the deployed bundle
 * under `docs/` (infra/bundling.ts); run from the repository, they are the repository's own `docs/`.
 */
const BESIDE_BUNDLE = new URL('./docs/', import.meta.url);
const DOCS_DIR = existsSync(BESIDE_BUNDLE) ? BESIDE_BUNDLE : new URL('../../docs/', import.meta.url);

/** A file name, never a path (no `/`, no `..`): nothing outside those two folders can be asked for. */
export const docsFileParams = z.object({
  page: z.string().check(z.regex(/^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/, 'must be a file name, such as decisions.md')),
});

/** The folders served, relative to `docs/`: the same in the repository and beside the bundle. */
export const DOCS_FOLDERS = ['', 'spec/'] as const;
export type DocsFolder = (typeof DOCS_FOLDERS)[number];

/** A page's Markdown source; one the docs do not have, or any file but a page, is a 404. */
export const readDocsFile = async (folder: DocsFolder, page: string): Promise<Buffer> => {
  if (!page.endsWith('.md')) throw new NotFoundError(`No documentation page ${folder}${page}`);
  try {
    return await readFile(new URL(`${folder}${page}`, DOCS_DIR));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new NotFoundError(`No documentation page ${folder}${page}`);
    throw error;
  }
};
