/**
 * Keys of client JSON that would replace an object's prototype if the parsed value were later copied key by
 * key (`copy[key] = value`, a deep merge): `__proto__`, and `constructor` holding a `prototype`. JSON.parse
 * itself keeps such a key as an ordinary own property, so nothing changes until a copy is made: the JSON
 * body parser refuses a body holding one before any code reads it, except inside the items of a route that
 * validates its items alone, whose validation refuses the item with `prototypeKeyMessages`.
 */

export const replacesPrototype = (key: string, value: unknown): boolean =>
  key === '__proto__' || (key === 'constructor' && typeof value === 'object' && value !== null && 'prototype' in value);

export const prototypeKeyMessage = (key: string): string => `a key named ${key} is not accepted`;

/** Enough for a client to see what is wrong, as for other field messages. */
const MAX_MESSAGES = 10;

interface Frame {
  value: object;
  /** The key that leads to `value` and the frame holding it: the path is built only for a key reported. */
  key?: string | number;
  parent?: Frame;
}

const pathOf = (frame: Frame, key: string): string => {
  const path: (string | number)[] = [key];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path.join('.');
};

/**
 * `path: message` for each key in a parsed JSON value that would replace a prototype, the path relative to
 * the value (`metadata.__proto__: a key named __proto__ is not accepted`). Walks with an explicit stack, so
 * no nesting the parser accepted overflows the call stack; reads the keys as own properties only.
 */
export const prototypeKeyMessages = (value: unknown): string[] => {
  const messages: string[] = [];
  const stack: Frame[] = typeof value === 'object' && value !== null ? [{ value }] : [];
  while (stack.length > 0 && messages.length < MAX_MESSAGES) {
    const frame = stack.pop() as Frame;
    const entries: [string | number, unknown][] = Array.isArray(frame.value)
      ? frame.value.map((child, index) => [index, child])
      : Object.entries(frame.value);
    for (const [key, child] of entries) {
      if (typeof key === 'string' && replacesPrototype(key, child))
        messages.push(`${pathOf(frame, key)}: ${prototypeKeyMessage(key)}`);
      if (typeof child === 'object' && child !== null) stack.push({ value: child, key, parent: frame });
    }
  }
  return messages.slice(0, MAX_MESSAGES);
};
