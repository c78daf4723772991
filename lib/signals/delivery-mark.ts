import { createHash } from 'node:crypto';

/** A sender's delivery of an event: its name and the id it keeps on retries (`deliveryIdOf`). */
export interface DeliveryRef {
  sender: string;
  id: string;
}

/**
 * How a signal remembers a delivery it counted (docs/data-model.md 5.7): an attribute of the signal item
 * named by a hash of sender and id, holding the receipt time in epoch ms, so a merge can test and record
 * it in its one conditional write. A signal keeps the KEPT_MARKS newest; older ones are removed by later
 * merges (`marksBeyondKept`), so the item stays small however many deliveries it merges.
 */
export type DeliveryMark = string;

const MARK_PREFIX = 'delivery#';
const KEPT_MARKS = 32;

export const deliveryMarkOf = ({ sender, id }: DeliveryRef): DeliveryMark =>
  `${MARK_PREFIX}${createHash('sha256').update(`${sender}\n${id}`).digest('base64url').slice(0, 22)}`;

/** Whether an item (a signal) counted the delivery. */
export const holdsMark = (item: Record<string, unknown>, mark: DeliveryMark): boolean => item[mark] !== undefined;

/** The marks of an item beyond its KEPT_MARKS newest: what the next merge into it removes. */
export const marksBeyondKept = (item: Record<string, unknown>): DeliveryMark[] =>
  Object.entries(item)
    .filter((entry): entry is [string, number] => entry[0].startsWith(MARK_PREFIX) && typeof entry[1] === 'number')
    .sort(([, a], [, b]) => b - a)
    .slice(KEPT_MARKS)
    .map(([name]) => name);
