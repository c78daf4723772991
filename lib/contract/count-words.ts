/**
 * A count as people write it, `1 alert`, `3 alerts`, `2 escalation policies` (the plural given when it is not
 * the word and an s): never `alert(s)`. Every text for people counts with it.
 */
export const countOf = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;
