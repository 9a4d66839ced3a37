import { describe, expect, it } from 'vitest';
import { decodeEntryName, foldName, parseEntryName } from './entry-name.ts';
import { printable, Refusal } from './refusal.ts';

const refusalOf = (fn: () => unknown): Refusal => {
  try {
    fn();
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('decodeEntryName', () => {
  it('reads UTF-8 with or without the UTF-8 flag (macOS and 7-Zip omit it)', () => {
    const raw = Buffer.from('données/été.txt', 'utf8');
    expect(decodeEntryName(raw, 0x0800)).toBe('données/été.txt');
    expect(decodeEntryName(raw, 0)).toBe('données/été.txt');
  });

  it('falls back to CP437 for unflagged names that are not UTF-8 (old Windows zippers)', () => {
    // "café.txt" in CP437: é is 0x82; "│" is 0xB3.
    expect(decodeEntryName(Buffer.from([0x63, 0x61, 0x66, 0x82, 0x2e, 0x74, 0x78, 0x74]), 0)).toBe(
      'café.txt',
    );
    expect(decodeEntryName(Buffer.from([0xb3]), 0)).toBe('│');
    expect(decodeEntryName(Buffer.from([0xff]), 0)).toBe('\u00a0');
  });

  it('refuses a flagged name that is not UTF-8', () => {
    expect(refusalOf(() => decodeEntryName(Buffer.from([0x61, 0xc3]), 0x0800)).code).toBe('ARCHIVE_BAD_NAME');
  });
});

describe('parseEntryName', () => {
  it('splits a clean relative name and recognises folders by the trailing slash', () => {
    expect(parseEntryName('src/components/App.tsx')).toEqual({
      segments: ['src', 'components', 'App.tsx'],
      isDir: false,
    });
    expect(parseEntryName('src/assets/')).toEqual({ segments: ['src', 'assets'], isDir: true });
  });

  it('accepts names that only look suspicious', () => {
    for (const name of ['..hidden', 'a..b/c', '...', 'dir/.env', 'C-drive/x', 'notes:2024.txt', 'x/..y']) {
      expect(() => parseEntryName(name), name).not.toThrow();
    }
  });

  it.each([
    ['a/../b', 'ARCHIVE_PATH_TRAVERSAL'],
    ['../', 'ARCHIVE_PATH_TRAVERSAL'],
    ['/abs', 'ARCHIVE_ABSOLUTE_PATH'],
    ['Z:/x', 'ARCHIVE_ABSOLUTE_PATH'],
    ['a\\b', 'ARCHIVE_BACKSLASH'],
    ['a\u0000', 'ARCHIVE_BAD_NAME'],
    ['a/', 'ok'],
    ['a//', 'ARCHIVE_BAD_PATH'],
    ['/', 'ARCHIVE_ABSOLUTE_PATH'],
    ['.', 'ARCHIVE_BAD_PATH'],
    ['./', 'ARCHIVE_BAD_PATH'],
  ])('"%s" → %s', (name, expected) => {
    if (expected === 'ok') expect(() => parseEntryName(name)).not.toThrow();
    else expect(refusalOf(() => parseEntryName(name)).code).toBe(expected);
  });

  it('limits segment and path length in bytes, not characters', () => {
    // 128 two-byte characters: 256 bytes, one over NAME_MAX.
    expect(refusalOf(() => parseEntryName('é'.repeat(128))).code).toBe('ARCHIVE_BAD_PATH');
    expect(() => parseEntryName('é'.repeat(127))).not.toThrow();
    const deep = Array.from({ length: 120 }, () => 'abcdefgh').join('/');
    expect(refusalOf(() => parseEntryName(deep)).code).toBe('ARCHIVE_BAD_PATH');
  });
});

describe('foldName', () => {
  it('folds case and Unicode normalisation', () => {
    expect(foldName('README.md')).toBe(foldName('readme.MD'));
    expect(foldName('cafe\u0301')).toBe(foldName('caf\u00e9'));
    expect(foldName('a.txt')).not.toBe(foldName('b.txt'));
  });
});

describe('printable', () => {
  it('escapes controls and invisible formatting characters, keeps the rest', () => {
    expect(printable('a\u0000b\u001b[0m\u202eexe.txt')).toBe('a\\u0000b\\u001b[0m\\u202eexe.txt');
    expect(printable('日本語/été.txt')).toBe('日本語/été.txt');
  });

  it('shortens very long names', () => {
    expect(printable('x'.repeat(5000))).toHaveLength(201);
  });
});
