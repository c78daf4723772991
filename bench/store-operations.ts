import type { Table } from '#lib/store/table.ts';
import { meterWriteUnits } from './write-units.ts';

const READS = new Set([
  'GetCommand',
  'GetItemCommand',
  'QueryCommand',
  'BatchGetCommand',
  'BatchGetItemCommand',
  'ScanCommand',
]);

export interface OperationCount {
  reads: number;
  writes: number;
  /** Items a read returned or counted: what a read costs grows with them. */
  itemsRead: number;
  /** Reads that only counted items (`Select: COUNT`). */
  counts: number;
  /** Write units DynamoDB would bill for the single-item writes, index entries included (write-units.ts). */
  writeUnits: number;
}

/** Counts the table operations at the SDK, on the document client every port shares. */
export const countOperations = async (table: Table) => {
  const count = { reads: 0, writes: 0, itemsRead: 0, counts: 0 };
  let counting = false;
  const meter = await meterWriteUnits(table, () => counting);
  table.doc.middlewareStack.add(
    (next, context) => async (args) => {
      if (!counting) return next(args);
      // A refused conditional write is billed as a write too: count before the outcome is known.
      const name = context.commandName ?? '';
      if (!READS.has(name)) {
        count.writes += 1;
        return next(args);
      }
      count.reads += 1;
      const result = await next(args);
      const input = args.input as { Select?: string };
      const output = result.output as { Items?: unknown[]; Item?: unknown; Count?: number };
      if (input.Select === 'COUNT') count.counts += 1;
      count.itemsRead += output.Items?.length ?? (output.Item ? 1 : 0);
      return result;
    },
    { step: 'initialize', name: 'benchOperationCounter' },
  );
  return {
    /**
     * The operations `run` made, per call of it, `calls` times one after another. Between calls `settle`
     * runs uncounted: what a request queued for later (a notification's delivery) is not the request's cost.
     */
    async per(
      calls: number,
      run: (n: number) => Promise<unknown>,
      settle: () => Promise<void>,
    ): Promise<OperationCount> {
      Object.assign(count, { reads: 0, writes: 0, itemsRead: 0, counts: 0 });
      meter.metered.units = 0;
      for (let n = 0; n < calls; n += 1) {
        await settle();
        counting = true;
        await run(n).finally(() => {
          counting = false;
        });
      }
      const per = (value: number) => Number((value / calls).toFixed(2));
      return {
        reads: per(count.reads),
        writes: per(count.writes),
        itemsRead: per(count.itemsRead),
        counts: per(count.counts),
        writeUnits: per(meter.metered.units),
      };
    },
    close: meter.close,
  };
};
