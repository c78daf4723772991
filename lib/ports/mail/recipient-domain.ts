/**
 * What logs may say of a recipient: codes and tokens go to the address, so the address stays out of logs. Apart
 * from the message schema: the API functions' lazy chunks that log a lost message would otherwise share the
 * schema's zod with the entry, and esbuild would split zod into a chunk of its own, which every cold start
 * loads (test/architecture/bundles.test.ts).
 */
export const recipientDomain = (to: string): string => to.slice(to.lastIndexOf('@') + 1).toLowerCase();
