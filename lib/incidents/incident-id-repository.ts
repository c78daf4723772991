import { getItem } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';
import { updateItem } from '#lib/store/conditional-writes.ts';

/** `YYYYMMDD` of the UTC day. */
const utcDay = (instant: Date): string => instant.toISOString().slice(0, 10).replaceAll('-', '');

/** The day's counter. It never expires: if it disappeared, numbering would restart at 1 and ids would collide. */
const dayCounterKey = (workspaceId: string, day: string) => ({ pk: workspaceKey(workspaceId, 'INCSEQ'), sk: day });

/** Four digits at least, more once the day passes 9999: a day never runs out (see `incidentSortKey` for key order). */
const incidentId = (day: string, number: number): string => `INC-${day}-${String(number).padStart(4, '0')}`;

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const incidentIdRepository = (table: Table, workspaceId: string) => {
  /**
   * The next incident id of the workspace for the UTC day of `now`, `INC-YYYYMMDD-XXXX`. The number comes
   * from an atomic `ADD` on the day's counter, so concurrent callers always get different numbers, with
   * no read and no retry. A number taken by a create that then fails is never reused: gaps are allowed.
   * Only a create allocates, so only callers allowed to create can move the counter.
   */
  const allocateIncidentId = async (now: Date): Promise<string> => {
    const day = utcDay(now);
    const counter = await updateItem(table, dayCounterKey(workspaceId, day), {
      UpdateExpression: 'ADD seq :one SET #type = :type, workspaceId = :workspaceId',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':one': 1, ':type': 'INCIDENT_DAY_COUNTER', ':workspaceId': workspaceId },
    });
    return incidentId(day, counter.seq as number);
  };

  /**
   * `GET /generate-id`: the id the next create would take at `now`, read from the day's counter and
   * reserving nothing. It is a read, open to every role and to read-only keys, so it must not be able to
   * use up numbers; a create in between (or midnight UTC) gives the next create another id.
   */
  const nextIncidentId = async (now: Date): Promise<string> => {
    const day = utcDay(now);
    const counter = await getItem(table, dayCounterKey(workspaceId, day));
    return incidentId(day, ((counter?.seq as number | undefined) ?? 0) + 1);
  };
  return { allocateIncidentId, nextIncidentId };
};
