import crypto from 'node:crypto';

/**
 * Family passwords: scrypt at the OWASP Password Storage Cheat Sheet's parameters (N=2^17, r=8,
 * p=1), a 16-byte random salt and a 64-byte key, encoded `scrypt$N$r$p$salt$hash` (base64url) so
 * the parameters can be raised later without breaking stored hashes. Always the async scrypt: one
 * hash takes a few hundred milliseconds and 128 MiB, which must never block the event loop.
 */

const N = 2 ** 17;
const R = 8;
const P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 64;
/** scrypt needs 128·N·r bytes (128 MiB here); Node's default cap is 32 MiB. */
const maxmemFor = (n: number, r: number) => 128 * n * r * 2;

function scrypt(
  password: string,
  salt: Buffer,
  n: number,
  r: number,
  p: number,
  len: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    crypto.scrypt(password, salt, len, { N: n, r, p, maxmem: maxmemFor(n, r) }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, N, R, P, KEY_BYTES);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * A hash of a password nobody has (made once, offline): unknown names are checked against it, so
 * their answer and its timing are those of a wrong password.
 */
export const DUMMY_HASH =
  'scrypt$131072$8$1$Fcz4z-vBgXlj-wKGultznQ$oYbxvOBq9tCctuH3UGPhz9wCeL3JPH2vsEOtENve_GH5PxsYq7TFTOqok9BExdXy_JShaccYl3Ob4skymi6qvg';

/** Whether `password` matches `encoded` (constant-time comparison); false for a malformed hash. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (![n, r, p].every((v) => Number.isInteger(v) && v > 0) || expected.length === 0) return false;
  const key = await scrypt(password, salt, n, r, p, expected.length);
  return crypto.timingSafeEqual(key, expected);
}
