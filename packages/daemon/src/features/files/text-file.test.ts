import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForgeError } from '../../http/forge-error.ts';
import { decodeText, readTextFile } from './text-file.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-text-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const errorOf = (fn: () => unknown): ForgeError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ForgeError) return err;
    throw err;
  }
  throw new Error('expected a ForgeError');
};

describe('decodeText', () => {
  it('reads UTF-8 text and keeps a byte-order mark, so a save round-trips it', () => {
    expect(decodeText(Buffer.from('héllo ✓'))).toBe('héllo ✓');
    expect(decodeText(Buffer.from('\uFEFFbom'))).toBe('\uFEFFbom');
  });
  it('calls a NUL in the first 8 KB, or invalid UTF-8, binary', () => {
    expect(decodeText(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]))).toBeNull();
    expect(decodeText(Buffer.from([0x61, 0xff, 0xfe, 0x62]))).toBeNull();
  });
});

describe('readTextFile', () => {
  it('answers FILE_TOO_LARGE_TO_OPEN past the limit without reading it, FILE_BINARY for binary', () => {
    fs.writeFileSync(path.join(dir, 'big.txt'), 'x'.repeat(101));
    const big = errorOf(() => readTextFile(path.join(dir, 'big.txt'), 'big.txt', 100));
    expect(big.code).toBe('FILE_TOO_LARGE_TO_OPEN');
    expect(big.status).toBe(413);
    fs.writeFileSync(path.join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]));
    expect(errorOf(() => readTextFile(path.join(dir, 'logo.png'), 'logo.png')).status).toBe(415);
  });
  it('refuses a folder', () => {
    expect(errorOf(() => readTextFile(dir, 'src')).code).toBe('NOT_A_FILE');
  });
});
