/** An error as a log line shows it: where it was thrown, and its cause, which JSON would drop. */
const errorFields = (error: Error): Record<string, unknown> => ({
  name: error.name,
  location: error.stack
    ?.match(/\(([^)]+:\d+):\d+\)|at ([^\s(]+:\d+):\d+/)
    ?.slice(1)
    .find(Boolean),
  message: error.message,
  stack: error.stack,
  ...(error.cause !== undefined && { cause: error.cause }),
});

const isEmpty = (value: unknown): boolean => value === undefined || value === null || value === '';

/**
 * A log line's fields made safe for JSON: errors with their message, stack and cause, big integers as
 * text, a reference back up the object graph as `[Circular]`; top-level fields without a value left out.
 */
export const toLoggable = (line: Record<string, unknown>): Record<string, unknown> => {
  const seen = new WeakSet<object>();
  const visit = (value: unknown): unknown => {
    if (typeof value === 'bigint') return value.toString();
    if (typeof value !== 'object' || value === null) return value;
    if (value instanceof Date) return value.toJSON();
    if (seen.has(value)) return '[Circular]';
    seen.add(value);
    const source = value instanceof Error ? errorFields(value) : value;
    const copy = Array.isArray(source)
      ? source.map(visit)
      : Object.fromEntries(Object.entries(source).map(([key, inner]) => [key, visit(inner)]));
    seen.delete(value);
    return copy;
  };
  return Object.fromEntries(
    Object.entries(line)
      .filter(([, value]) => !isEmpty(value))
      .map(([key, value]) => [key, visit(value)]),
  );
};
