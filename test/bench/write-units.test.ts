import { describe, expect, it } from 'vitest';
import { writeUnitsOf } from '../../bench/write-units.ts';

/** An item of a little under `kb` kilobytes, in the given indexes. */
const item = (
  kb: number,
  indexes: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> => ({
  pk: 'WS#w#SIG',
  sk: '01J',
  body: 'x'.repeat(kb * 1024 - 200),
  ...Object.fromEntries(
    Object.entries(indexes).flatMap(([index, partition]) => [
      [`${index}pk`, partition],
      [`${index}sk`, '01J'],
    ]),
  ),
  ...extra,
});

describe('write units as DynamoDB bills them', () => {
  it('bills a new item by its size, once in the table and once in each index it enters', () => {
    expect(writeUnitsOf(undefined, item(1), false)).toBe(1);
    expect(writeUnitsOf(undefined, item(2, { gsi1: 'OPEN', gsi2: 'metrics' }), false)).toBe(6);
  });

  it('bills a change of attributes in each index the item stays in, and a moved index key twice', () => {
    const open = item(1, { gsi1: 'OPEN', gsi2: 'metrics' }, { occurrences: 1 });
    expect(writeUnitsOf(open, { ...open, occurrences: 2 }, false)).toBe(3);
    expect(writeUnitsOf(open, { ...open, gsi1pk: 'RESOLVED' }, false)).toBe(4);
    const { gsi2pk: _pk, gsi2sk: _sk, ...leftGsi2 } = open;
    expect(writeUnitsOf(open, leftGsi2, false)).toBe(3);
  });

  it('bills a refused or empty write the table only', () => {
    const open = item(2, { gsi1: 'OPEN' });
    expect(writeUnitsOf(open, open, true)).toBe(2);
    expect(writeUnitsOf(open, open, false)).toBe(2);
  });
});
