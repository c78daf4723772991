import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '#lib/http/errors.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';

/** A fifth digit would break the key order of ids, so a day holds at most this many incidents. */
const MAX_DAILY_NUMBER = 9999;

/** `YYYYMMDD` of the UTC day. */
const utcDay = (instant: Date): string => instant.toISOString().slice(0, 10).replaceAll('-', '');

/** The day's counter. It never expires: if it disappeared, numbering would restart at 1 and ids would collide. */
const dayCounterKey = (workspaceId: string, day: string) => ({ pk: workspaceKey(workspaceId, 'INCSEQ'), sk: day });

/**
 * The next incident id of the workspace for the UTC day of `now`, `INC-YYYYMMDD-XXXX`. The number comes
 * from an atomic `ADD` on the day's counter, so concurrent callers always get different numbers, with
 * no read and no retry. A number taken by a request that then fails is never reused: gaps are allowed.
 * `GET /generate-id` reserves a number this way and returns it; create always allocates its own, so a
 * reserved id is never taken by a create (the spec's create takes no id).
 */
export const allocateIncidentId = async (table: Table, workspaceId: string, now: Date): Promise<string> => {
  const day = utcDay(now);
  const { Attributes } = await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: dayCounterKey(workspaceId, day),
      UpdateExpression: 'ADD seq :one SET #type = :type, workspaceId = :workspaceId',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':one': 1, ':type': 'INCIDENT_DAY_COUNTER', ':workspaceId': workspaceId },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const number = Attributes?.seq as number;
  if (number > MAX_DAILY_NUMBER) {
    throw new ConflictError('The workspace has reached its limit of incidents for today', [
      `at most ${MAX_DAILY_NUMBER} incident ids are issued per UTC day`,
    ]);
  }
  return `INC-${day}-${String(number).padStart(4, '0')}`;
};
