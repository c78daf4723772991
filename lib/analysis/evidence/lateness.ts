/** A delivery this much later than what it reports is worth saying: the item's place is its own time, not this one. */
const LATE_MINUTES = 5;

/**
 * How many minutes after it happened a record was first delivered, when that is LATE_MINUTES or more (a deploy's
 * late webhook, an alert delivered after it fired); null for a prompt one.
 */
export const minutesLate = (happenedAt: string, receivedAt: string): number | null => {
  const minutes = Math.round((Date.parse(receivedAt) - Date.parse(happenedAt)) / 60_000);
  return minutes >= LATE_MINUTES ? minutes : null;
};
