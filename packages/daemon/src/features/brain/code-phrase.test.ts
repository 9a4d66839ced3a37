import { describe, expect, it } from 'vitest';
import { hashCodePhrase, verifyCodePhrase } from './code-phrase.ts';

describe('code phrase hashing', () => {
  it('stores scrypt$N$r$p$salt$hash with a fresh salt, and verifies only the same phrase', async () => {
    const phrase = 'correct horse battery staple';
    const a = await hashCodePhrase(phrase);
    const b = await hashCodePhrase(phrase);
    const parts = a.split('$');
    expect(parts.slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
    expect(Buffer.from(parts[4]!, 'base64')).toHaveLength(16);
    expect(Buffer.from(parts[5]!, 'base64')).toHaveLength(32);
    expect(a).not.toBe(b);
    expect(a).not.toContain(phrase);
    await expect(verifyCodePhrase(phrase, a)).resolves.toBe(true);
    await expect(verifyCodePhrase(phrase, b)).resolves.toBe(true);
    await expect(verifyCodePhrase('correct horse battery stapler', a)).resolves.toBe(false);
    await expect(verifyCodePhrase('Correct horse battery staple', a)).resolves.toBe(false);
  });

  it('refuses malformed or absurdly costly stored hashes instead of running them', async () => {
    const good = await hashCodePhrase('abcdefgh');
    const [, , , , salt, key] = good.split('$');
    for (const stored of [
      '',
      'plain text',
      `bcrypt$32768$8$1$${salt}$${key}`,
      `scrypt$1000$8$1$${salt}$${key}`, // N not a power of two
      `scrypt$${2 ** 24}$8$1$${salt}$${key}`, // 2 GiB
      `scrypt$32768$8$1$$${key}`,
    ]) {
      await expect(verifyCodePhrase('abcdefgh', stored)).resolves.toBe(false);
    }
  });
});
