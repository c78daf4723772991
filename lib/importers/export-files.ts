import type * as z from 'zod/mini';

/**
 * An export folder as the importers read it: the JSON body of one file by its path in the folder, undefined when
 * the folder has no such file (a tool's export need not hold every part).
 */
export type ExportFiles = (path: string) => unknown;

/** A file parsed with its schema; a file that is there but not of the documented shape stops the import. */
export const readExport = <T>(files: ExportFiles, path: string, schema: z.ZodMiniType<T>): T | undefined => {
  const body = files(path);
  if (body === undefined) return undefined;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${path}: not the shape the API returns (${issue?.path.join('.') || 'body'}: ${issue?.message})`);
  }
  return parsed.data;
};
