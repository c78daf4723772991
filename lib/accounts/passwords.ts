import { randomBytes, randomUUID, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scryptCallback(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

/**
 * scrypt's recommended interactive cost: N = 2^14, about 50 ms and 16 MiB per hash, slow enough to make guessing
 * expensive. `SCRYPT_COST_LOG2` may raise it (15-20); only the test suite lowers it (10, vitest.config.ts), where a
 * thousand sign-ups cost a minute of CPU and hashing is not what is tested. Nothing in the stack sets it; a stored
 * hash carries its own cost, so a change never breaks a password.
 */
const costLog2 = (): number => {
  const given = Number(process.env.SCRYPT_COST_LOG2 ?? 14);
  return Number.isInteger(given) && given >= 10 && given <= 20 ? given : 14;
};
const currentCost = () => ({ N: 2 ** costLog2(), r: 8, p: 1 }) as const;
const KEY_LENGTH = 32;

/** `scrypt$N$r$p$<salt>$<hash>`, so the cost can be raised later without breaking stored hashes. */
export const hashPassword = async (password: string): Promise<string> => {
  const cost = currentCost();
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
};

const decoys = new Map<number, Promise<string>>();
/**
 * A hash of no one's password at the current cost, made once per cost: compared against when there is no stored
 * hash, so an unknown address costs the same slow hash as a known one.
 */
export const decoyHash = (): Promise<string> => {
  const { N } = currentCost();
  const decoy = decoys.get(N) ?? hashPassword(randomUUID());
  decoys.set(N, decoy);
  return decoy;
};

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
};
