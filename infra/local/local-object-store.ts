import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ObjectStore } from '#lib/ports/object-store/object-store.ts';

/**
 * The local object-store port: files under `directory` (the key is the relative path), or a map when
 * there is none (`DATA_DIR=:memory:`). Keys are built by `objectKey`, plain names only, so a key never
 * leaves the directory. Nothing expires locally, as nothing does in the local table.
 */
export const openLocalObjectStore = (directory: string | undefined): ObjectStore => {
  if (!directory) {
    const objects = new Map<string, string>();
    return {
      async put(key, body) {
        objects.set(key, body);
      },
      async get(key) {
        const body = objects.get(key);
        if (body === undefined) throw new Error(`no object ${key}`);
        return body;
      },
    };
  }
  return {
    async put(key, body) {
      const file = join(directory, key);
      await mkdir(dirname(file), { recursive: true });
      // Written aside and renamed, so a reader never sees half an object.
      const partial = `${file}.${randomUUID()}.partial`;
      await writeFile(partial, body, 'utf8');
      await rename(partial, file);
    },
    async get(key) {
      return readFile(join(directory, key), 'utf8');
    },
  };
};
