import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_PREFIXES, OTHER_PREFIXES, WORKSPACE_PREFIXES } from '#lib/store/key-prefixes.ts';

const dataModel = readFileSync(new URL('../../docs/data-model.md', import.meta.url), 'utf8');

describe('the key-prefix registry', () => {
  it('names only partitions that docs/data-model.md documents', () => {
    const undocumented = [
      ...Object.keys(WORKSPACE_PREFIXES).filter((prefix) => !dataModel.includes(`{W}#${prefix}`)),
      ...Object.keys(ACCOUNT_PREFIXES).filter((prefix) => !dataModel.includes(`ACCOUNT#${prefix}`)),
      ...Object.keys(OTHER_PREFIXES).filter((prefix) => !dataModel.includes(`${prefix}#`)),
    ];
    expect(undocumented).toEqual([]);
  });
});
