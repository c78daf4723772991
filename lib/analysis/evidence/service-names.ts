/**
 * Services are named by people in several places (the service map, an incident's `serviceArea`, a
 * signal's `serviceId`), so they are compared by a key: lower case, every run of
 * other characters one `-` ("Hello_World" and "hello-world" are one service).
 */
export const serviceKey = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

export const sameService = (a: string | null | undefined, b: string | null | undefined): boolean =>
  !!a && !!b && serviceKey(a) === serviceKey(b);
