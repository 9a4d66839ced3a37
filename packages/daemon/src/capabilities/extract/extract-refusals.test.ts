import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { ERROR_CATALOGUE } from '@forge/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchiveRefusedError } from './archive-refused-error.ts';
import { extractArchive, settleBackgroundRemovals } from './extract-archive.ts';
import type { ExtractLimits } from './limits.ts';
import { printable, type ArchiveErrorCode } from './refusal.ts';
import {
  createSandbox,
  seedProject,
  snapshotTree,
  strayTempEntries,
  type Sandbox,
} from '../../../test/support/extract-sandbox.ts';
import { forgeZip, S_IFLNK, zeroBomb, type ForgedEntry } from '@forge/testing';

const MiB = 1024 * 1024;
let sb: Sandbox;
let straysBefore: string[];

beforeEach(async () => {
  straysBefore = strayTempEntries();
  sb = await createSandbox();
  seedProject(sb.targetDir);
});
afterEach(() => sb.cleanup());

const file = (name: string, data: string | Buffer = `content of ${name}\n`): ForgedEntry => ({ name, data });

/**
 * Extracts `archive` over the seeded project and asserts the refusal: its code (422), that the
 * message names the entry, and that nothing anywhere under the sandbox changed (the old project is
 * byte-for-byte intact, workDir holds no staging, nothing landed next to the sandbox in the temp dir).
 */
async function expectRefused(
  archive: Buffer | ForgedEntry[],
  code: ArchiveErrorCode,
  entry: string | null,
  limits?: Partial<ExtractLimits>,
): Promise<ArchiveRefusedError> {
  const zipPath = sb.zip('upload.zip', Buffer.isBuffer(archive) ? archive : forgeZip(archive));
  const before = snapshotTree(sb.root);
  const error: unknown = await extractArchive(zipPath, {
    targetDir: sb.targetDir,
    workDir: sb.workDir,
    ...(limits ? { limits } : {}),
  }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'the archive was extracted instead of refused').toBeInstanceOf(ArchiveRefusedError);
  const refused = error as ArchiveRefusedError;
  expect({ code: refused.code, status: refused.status }).toEqual({ code, status: 422 });
  if (entry !== null) {
    expect(refused.entry).toBe(printable(entry));
    expect(refused.message).toContain(`"${printable(entry)}"`);
    expect(refused.toBody()).toMatchObject({ code, details: { entry: printable(entry) } });
  }
  await settleBackgroundRemovals();
  expect(snapshotTree(sb.root)).toEqual(before);
  expect(strayTempEntries()).toEqual(straysBefore);
  return refused;
}

/** expectRefused for tests that need nothing more than the assertions it makes. */
const refuses = async (...args: Parameters<typeof expectRefused>): Promise<void> => {
  await expectRefused(...args);
};

describe('names that would land outside the project', () => {
  it.each([['../evil.txt'], ['app/../../evil.txt'], ['app/..'], ['..']])(
    'refuses "%s" (ARCHIVE_PATH_TRAVERSAL)',
    (name) => refuses([file('app/ok.txt'), file(name)], 'ARCHIVE_PATH_TRAVERSAL', name),
  );

  it.each([['/etc/evil.txt'], ['/tmp/']])('refuses the absolute path "%s"', (name) =>
    refuses([file('ok.txt'), file(name)], 'ARCHIVE_ABSOLUTE_PATH', name),
  );

  it.each([['C:/Windows/evil.txt'], ['c:evil.txt']])('refuses the drive path "%s"', (name) =>
    refuses([file('ok.txt'), file(name)], 'ARCHIVE_ABSOLUTE_PATH', name),
  );

  it.each([['..\\evil.txt'], ['src\\index.js']])('refuses the backslash in "%s"', (name) =>
    refuses([file('ok.txt'), file(name)], 'ARCHIVE_BACKSLASH', name),
  );

  it('checks names of dropped junk too: a hostile name is refused even under node_modules/', () =>
    refuses(
      [file('ok.txt'), file('node_modules/../../evil.txt')],
      'ARCHIVE_PATH_TRAVERSAL',
      'node_modules/../../evil.txt',
    ));
});

describe('names that are not plain text', () => {
  it.each([
    ['NUL', 'a\u0000b.txt'],
    ['escape sequence', '\u001b[31mred.txt'],
    ['newline', 'two\nlines.txt'],
    ['DEL', 'del\u007f.txt'],
    ['C1 control', 'next\u0085line.txt'],
  ])('refuses a %s in the name, and escapes it in the message', async (_label, name) => {
    const error = await expectRefused([file('ok.txt'), file(name)], 'ARCHIVE_BAD_NAME', name);
    // eslint-disable-next-line no-control-regex
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('refuses a name flagged UTF-8 that is not valid UTF-8', async () => {
    const name = Buffer.from([0x62, 0x61, 0x64, 0xff, 0xfe, 0x2e, 0x74, 0x78, 0x74]);
    const error = await expectRefused(
      [file('ok.txt'), { name, data: 'x', utf8Flag: true }],
      'ARCHIVE_BAD_NAME',
      null,
    );
    expect(error.entry).toContain('bad');
  });

  it.each([['a//b.txt'], ['./a.txt'], ['a/./b.txt'], ['src//']])(
    'refuses the empty or "." segment in "%s"',
    (name) => refuses([file('ok.txt'), name.endsWith('/') ? { name } : file(name)], 'ARCHIVE_BAD_PATH', name),
  );

  it('refuses an empty name', () => refuses([file('ok.txt'), file('')], 'ARCHIVE_BAD_PATH', ''));

  it('refuses a path segment longer than any file system allows', () => {
    const name = `src/${'x'.repeat(256)}.txt`;
    return refuses([file('ok.txt'), file(name)], 'ARCHIVE_BAD_PATH', name);
  });
});

describe('entries that are not plain files', () => {
  it('refuses an encrypted symbolic link: its target cannot be read, so nothing can vouch for it', () =>
    refuses(
      [
        file('app/ok.txt'),
        { name: 'app/passwd', data: '/etc/passwd', unixMode: S_IFLNK | 0o777, flags: 0x0001 },
      ],
      'ARCHIVE_ENCRYPTED',
      'app/passwd',
    ));

  it('refuses a symbolic link whose data fails its CRC, as it would a file', () =>
    refuses(
      [file('app/ok.txt'), { name: 'app/l', data: 'ok.txt', crc: 1, unixMode: S_IFLNK | 0o777 }],
      'ARCHIVE_CORRUPT',
      'app/l',
    ));

  it('refuses an encrypted entry (flag bit 0)', () =>
    refuses(
      [file('ok.txt'), { name: 'secret.txt', data: 'x', flags: 0x0001 }],
      'ARCHIVE_ENCRYPTED',
      'secret.txt',
    ));

  it('refuses a WinZip AES entry (method 99)', () =>
    refuses(
      [file('ok.txt'), { name: 'aes.txt', raw: randomBytes(40), method: 99, size: 10 }],
      'ARCHIVE_ENCRYPTED',
      'aes.txt',
    ));
});

describe('two entries for one path', () => {
  it('refuses byte-identical names', () =>
    refuses([file('a.txt', 'one'), file('a.txt', 'two')], 'ARCHIVE_DUPLICATE_ENTRY', 'a.txt'));

  it('refuses names that differ only in case', () =>
    refuses([file('README.md'), file('readme.md')], 'ARCHIVE_DUPLICATE_ENTRY', 'readme.md'));

  it('refuses names that differ only in Unicode normalisation (NFC vs NFD)', () => {
    const nfd = 'cafe\u0301.txt';
    return refuses([file('caf\u00e9.txt'), file(nfd)], 'ARCHIVE_DUPLICATE_ENTRY', nfd);
  });

  it('refuses one name spelt in UTF-8 and in CP437 (same text, different bytes)', () =>
    refuses(
      [
        file('caf\u00e9.txt'),
        { name: Buffer.from([0x63, 0x61, 0x66, 0x82, 0x2e, 0x74, 0x78, 0x74]), data: 'x' },
      ],
      'ARCHIVE_DUPLICATE_ENTRY',
      'caf\u00e9.txt',
    ));

  it('refuses one folder entry spelt in UTF-8 and in CP437', () =>
    refuses(
      [
        { name: 'caf\u00e9/' },
        file('caf\u00e9/a.txt'),
        { name: Buffer.from([0x63, 0x61, 0x66, 0x82, 0x2f]) },
      ],
      'ARCHIVE_DUPLICATE_ENTRY',
      'caf\u00e9/',
    ));

  it('refuses folder entries that differ only in case', () =>
    refuses([{ name: 'src/' }, file('src/a.txt'), { name: 'SRC/' }], 'ARCHIVE_DUPLICATE_ENTRY', 'SRC/'));

  it('refuses one folder spelt two ways by the files in it', () =>
    refuses([file('App/a.txt'), file('app/b.txt')], 'ARCHIVE_DUPLICATE_ENTRY', 'app/b.txt'));

  it('refuses a file and a folder entry with the same name (trailing slash ignored)', () =>
    refuses([file('lib'), { name: 'lib/' }], 'ARCHIVE_DUPLICATE_ENTRY', 'lib/'));

  it('refuses a file that is also needed as a folder ("a", then "a/b")', () =>
    refuses([file('a'), file('a/b.txt')], 'ARCHIVE_DUPLICATE_ENTRY', 'a/b.txt'));

  it('refuses a folder that is also written as a file ("a/b", then "A")', () =>
    refuses([file('a/b.txt'), file('A')], 'ARCHIVE_DUPLICATE_ENTRY', 'A'));
});

describe('limits', () => {
  it('refuses more than 10,000 entries, naming the first one over', () => {
    const entries: ForgedEntry[] = Array.from({ length: 10_001 }, (_, i) => ({
      name: `f/${i}.txt`,
      data: '',
    }));
    return refuses(forgeZip(entries), 'ARCHIVE_TOO_MANY_ENTRIES', 'f/10000.txt');
  });

  it('counts dropped junk against the entry limit', () =>
    refuses(
      [file('a.txt'), file('b.txt'), file('__MACOSX/._a.txt'), file('__MACOSX/._b.txt')],
      'ARCHIVE_TOO_MANY_ENTRIES',
      '__MACOSX/._b.txt',
      { maxEntries: 3 },
    ));

  it('refuses more than 500 MB declared in total, before inflating anything', () => {
    // 501 entries each declaring exactly 1 MiB (too small for the ratio check) with a byte of data.
    const entries: ForgedEntry[] = Array.from({ length: 501 }, (_, i) => ({
      name: `blob-${i}.bin`,
      raw: Buffer.from('x'),
      method: 0,
      size: MiB,
    }));
    return refuses(forgeZip(entries), 'ARCHIVE_TOO_LARGE', 'blob-500.bin');
  });

  it('refuses an entry above 1 MiB that compresses better than 100:1', () =>
    refuses([file('ok.txt'), file('zeros.bin', Buffer.alloc(2 * MiB))], 'ARCHIVE_RATIO', 'zeros.bin'));

  it('refuses an entry above 1 MiB that declares no compressed bytes at all', () =>
    refuses(
      [file('ok.txt'), { name: 'nothing.bin', raw: Buffer.alloc(0), method: 8, size: 2 * MiB }],
      'ARCHIVE_RATIO',
      'nothing.bin',
    ));
});

describe('data that does not match the central directory', () => {
  const content = 'the real content is much longer than declared. '.repeat(20);

  it('refuses a deflated entry that inflates past its declared size', () =>
    refuses(
      [file('ok.txt'), { name: 'liar.txt', data: content, size: 10 }],
      'ARCHIVE_SIZE_MISMATCH',
      'liar.txt',
    ));

  it('refuses a stored entry longer than its declared size', () =>
    refuses(
      [file('ok.txt'), { name: 'liar.txt', data: content, method: 0, size: 10 }],
      'ARCHIVE_SIZE_MISMATCH',
      'liar.txt',
    ));

  it('stops inflating at the declared size: a 1 GiB bomb declaring 100 bytes costs no memory', async () => {
    const bomb: ForgedEntry = { name: 'small.txt', raw: zeroBomb(1024), method: 8, size: 100, crc: 0 };
    const zip = forgeZip([file('ok.txt'), bomb]);
    // Peak resident memory of the whole process, extraction threads included (KiB).
    const peakBefore = process.resourceUsage().maxRSS;
    await expectRefused(zip, 'ARCHIVE_SIZE_MISMATCH', 'small.txt');
    expect((process.resourceUsage().maxRSS - peakBefore) / 1024).toBeLessThan(256);
  });

  it('stops streaming a large entry at its declared size: a 4 GiB bomb declaring 17 MiB', async () => {
    const bomb: ForgedEntry = { name: 'big.bin', raw: zeroBomb(4096), method: 8, size: 17 * MiB, crc: 0 };
    const zip = forgeZip([file('ok.txt'), bomb]);
    const started = performance.now();
    await expectRefused(zip, 'ARCHIVE_SIZE_MISMATCH', 'big.bin');
    // Inflating and writing 4 GiB takes many seconds; stopping after 17 MiB takes a fraction of one.
    expect(performance.now() - started).toBeLessThan(4_000);
  });

  it('refuses an entry shorter than its declared size', () =>
    refuses(
      [file('ok.txt'), { name: 'short.txt', data: content, size: content.length + 5 }],
      'ARCHIVE_CORRUPT',
      'short.txt',
    ));

  it('refuses an entry whose CRC does not match', () =>
    refuses(
      [file('ok.txt'), { name: 'flipped.txt', data: content, crc: 0x12345678 }],
      'ARCHIVE_CORRUPT',
      'flipped.txt',
    ));

  it('refuses a streamed entry whose CRC does not match', () =>
    refuses(
      [file('ok.txt'), { name: 'big.bin', data: Buffer.alloc(17 * MiB, 7), crc: 1 }],
      'ARCHIVE_CORRUPT',
      'big.bin',
      { maxRatio: 100_000 },
    ));

  it('refuses deflate data that is garbage', () =>
    refuses(
      [
        file('ok.txt'),
        { name: 'noise.txt', raw: Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x01]), method: 8, size: 50 },
      ],
      'ARCHIVE_CORRUPT',
      'noise.txt',
    ));

  it('refuses an unsupported compression method', () =>
    refuses(
      [file('ok.txt'), { name: 'b.bz2', raw: Buffer.from('BZh9'), method: 12, size: 9 }],
      'ARCHIVE_CORRUPT',
      'b.bz2',
    ));

  it('refuses an unsupported method even when its bytes happen to inflate (never guess the method)', () =>
    refuses(
      [file('ok.txt'), { name: 'lzma.bin', raw: deflateRawSync('hello'), method: 14, data: 'hello' }],
      'ARCHIVE_CORRUPT',
      'lzma.bin',
    ));

  it('refuses an entry whose local header is not where the directory says', () =>
    refuses(
      [file('ok.txt'), { name: 'lost.txt', data: 'x', localOffset: 5 }],
      'ARCHIVE_CORRUPT',
      'lost.txt',
    ));

  it('fails late without leaving anything behind: 300 files written, then a corrupt one', () => {
    const good = Array.from({ length: 300 }, (_, i) => file(`src/file-${i}.js`));
    return refuses(
      [...good, { name: 'src/bad.js', data: content, crc: 42 }],
      'ARCHIVE_CORRUPT',
      'src/bad.js',
    );
  });
});

describe('not a usable archive', () => {
  it('refuses a file that is not a ZIP', async () => {
    const error = await expectRefused(randomBytes(4096), 'ARCHIVE_CORRUPT', null);
    expect(error.entry).toBeNull();
  });

  it('refuses a ZIP cut short in its central directory', () => {
    const whole = forgeZip([file('a.txt'), file('b.txt')]);
    return refuses(whole.subarray(0, whole.length - 30), 'ARCHIVE_CORRUPT', null);
  });

  it('refuses an empty file', () => refuses(Buffer.alloc(0), 'ARCHIVE_CORRUPT', null));

  it('refuses an archive without entries', () => refuses(forgeZip([]), 'ARCHIVE_EMPTY', null));

  it('refuses an archive of folders only', () =>
    refuses([{ name: 'app/' }, { name: 'app/src/' }], 'ARCHIVE_EMPTY', null));

  it('refuses an archive of dropped junk only, and says so', async () => {
    const error = await expectRefused(
      [file('node_modules/x/index.js'), file('.DS_Store'), file('__MACOSX/._x')],
      'ARCHIVE_EMPTY',
      null,
    );
    expect(error.message).toContain('node_modules/');
  });
});

describe('ArchiveRefusedError', () => {
  it('uses only catalogue codes whose status is 422', () => {
    const codes = Object.keys(ERROR_CATALOGUE).filter((code) => code.startsWith('ARCHIVE_'));
    expect(codes.length).toBeGreaterThanOrEqual(14);
    for (const code of codes) {
      expect(new ArchiveRefusedError(code as ArchiveErrorCode, 'x', 'm').status).toBe(422);
    }
  });
});
