import * as z from 'zod/mini';

/**
 * Rules for client JSON the table stores as it came (signal `metadata`), so what validation accepts is
 * what DynamoDB accepts: a 400 naming the field instead of a 500 from the SDK or, in AWS only, from
 * DynamoDB.
 */

/**
 * DynamoDB nests at most 32 levels, a top-level attribute being level 1: a map there may hold maps 31
 * levels down, the scalars of the deepest one being level 32 (docs.aws.amazon.com, DynamoDB quotas).
 */
const DYNAMODB_MAX_LEVELS = 32;

/** How many levels of objects and arrays a value may have when it sits at `level` of an item (1: a top-level attribute). */
export const nestingAllowedAt = (level: number): number => DYNAMODB_MAX_LEVELS - level;

/**
 * The document client refuses numbers it cannot send exactly (beyond 2^53 - 1) and DynamoDB refuses
 * magnitudes below 1e-130. JSON.parse has already rounded a longer number by the time we see it, so
 * keeping it as a string could not keep it exactly either: such a number is refused, and a sender that
 * needs one sends it as a string.
 */
const SMALLEST_MAGNITUDE = 1e-130;

export const isStorableNumber = (value: number): boolean => {
  const magnitude = Math.abs(value);
  return magnitude === 0 || (magnitude >= SMALLEST_MAGNITUDE && magnitude <= Number.MAX_SAFE_INTEGER);
};

const NUMBER_MESSAGE = `must be 0 or between 1e-130 and ${Number.MAX_SAFE_INTEGER} in magnitude; send other numbers as strings`;

/** A number field the table stores. */
export const storableNumber = z.number().check(z.refine(isStorableNumber, NUMBER_MESSAGE));

/**
 * The document client tells a plain object from a Set, a Map, a Buffer or a String by its `constructor`,
 * so an object with its own key named so (`{"constructor": "x"}`) cannot be stored, or is stored as
 * something else. (`__proto__` never gets this far: the JSON body parser refuses the body holding it, or
 * a bulk post the item holding it, before any schema reads it; lib/contract/prototype-keys.ts.)
 */
const TYPE_KEY = 'constructor';
const TYPE_KEY_MESSAGE = `must not be named ${TYPE_KEY}: the table reads that key as the object's type`;

/** A record whose keys become map keys in the table, such as labels. */
export const storedRecord = <V extends z.ZodMiniType>(value: V) =>
  z.record(z.string(), value).check(
    z.superRefine((record, context) => {
      if (Object.hasOwn(record, TYPE_KEY))
        context.addIssue({ code: 'custom', message: TYPE_KEY_MESSAGE, path: [TYPE_KEY] });
    }),
  );

export interface StoredJsonLimits {
  /** Size of the object as compact JSON, in UTF-8 bytes. */
  maxBytes: number;
  /** Levels of objects and arrays, the object itself being the first; see `nestingAllowedAt`. */
  maxDepth: number;
}

interface Issue {
  path: (string | number)[];
  message: string;
}

type Container = Record<string, unknown> | unknown[];

interface Frame {
  value: Container;
  depth: number;
  path: (string | number)[];
}

/** Enough for a client to see what is wrong; an array of 100,000 bad numbers gets no 100,000 messages. */
const MAX_ISSUES = 10;

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? 'null');

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/**
 * Walks the object with an explicit stack rather than recursion, so no nesting or width a 1 MiB body can
 * hold overflows the call stack, and adds up its size as compact JSON on the way.
 */
const storedJsonIssues = (root: Record<string, unknown>, { maxBytes, maxDepth }: StoredJsonLimits): Issue[] => {
  const issues: Issue[] = [];
  const stack: Frame[] = [{ value: root, depth: 1, path: [] }];
  let bytes = 0;
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const { value, depth, path } = stack.pop() as Frame;
    if (depth > maxDepth) {
      issues.push({ path, message: `must nest at most ${maxDepth} levels of objects and arrays` });
      break;
    }
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    bytes += 2 + Math.max(0, entries.length - 1);
    for (const [key, child] of entries) {
      if (typeof key === 'string') bytes += jsonBytes(key) + 1;
      if (key === TYPE_KEY) issues.push({ path: [...path, key], message: TYPE_KEY_MESSAGE });
      if (isContainer(child)) {
        stack.push({ value: child, depth: depth + 1, path: [...path, key] });
        continue;
      }
      bytes += jsonBytes(child);
      if (typeof child === 'number' && !isStorableNumber(child))
        issues.push({ path: [...path, key], message: NUMBER_MESSAGE });
    }
    if (bytes > maxBytes) {
      issues.push({ path: [], message: `must be at most ${maxBytes} bytes as JSON` });
      break;
    }
  }
  return issues.slice(0, MAX_ISSUES);
};

/**
 * A free-form JSON object the table stores as it came: bounded in size and nesting, every number one
 * DynamoDB keeps exactly. Every place that stores client JSON uses this one schema.
 */
export const storedJsonObject = (limits: StoredJsonLimits) =>
  z.record(z.string(), z.unknown()).check(
    z.superRefine((value, context) => {
      for (const { path, message } of storedJsonIssues(value, limits))
        context.addIssue({ code: 'custom', message, path });
    }),
    z.describe(
      `Any JSON object, at most ${limits.maxBytes} bytes as JSON and ${limits.maxDepth} levels of objects and arrays deep; ` +
        `numbers must be 0 or between 1e-130 and ${Number.MAX_SAFE_INTEGER} in magnitude (send others as strings)`,
    ),
  );
