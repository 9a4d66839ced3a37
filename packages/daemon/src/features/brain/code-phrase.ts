import crypto from 'node:crypto';

/**
 * The brain's code phrase is kept only as a scrypt hash: `scrypt$N$r$p$salt$hash` (salt and hash in
 * base64). Cost N=2^15, r=8, p=1 (about 32 MiB and a tenth of a second per try), a random 16-byte
 * salt, a 32-byte key.
 */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** The most memory a stored hash may ask for: a tampered store cannot make verification eat the machine. */
const MAX_SCRYPT_BYTES = 256 * 1024 * 1024;

/** scrypt needs 128·N·r·p bytes; node's default ceiling (32 MiB) is exactly that, so allow twice. */
const maxmemFor = (N: number, r: number, p: number): number => 2 * 128 * N * r * p;

function scrypt(
  phrase: string,
  salt: Buffer,
  N: number,
  r: number,
  p: number,
  length: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    crypto.scrypt(
      phrase.normalize('NFC'),
      salt,
      length,
      { N, r, p, maxmem: maxmemFor(N, r, p) },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

/** The hash to store for `phrase`. */
export async function hashCodePhrase(phrase: string): Promise<string> {
  const salt = crypto.randomBytes(SALT_BYTES);
  const key = await scrypt(phrase, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, KEY_BYTES);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether `phrase` is the one `stored` was made from (constant-time compare). False for a malformed hash. */
export async function verifyCodePhrase(phrase: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const positive = (n: number) => Number.isInteger(n) && n >= 1;
  if (![N, r, p].every(positive) || N < 2 || (N & (N - 1)) !== 0) return false;
  if (128 * N * r * p > MAX_SCRYPT_BYTES) return false;
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (salt.length === 0 || expected.length === 0) return false;
  const actual = await scrypt(phrase, salt, N, r, p, expected.length);
  return crypto.timingSafeEqual(actual, expected);
}
