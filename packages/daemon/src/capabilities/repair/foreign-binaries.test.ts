import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { binaryTarget, foreignBinaries, isForeign } from './foreign-binaries.ts';
import { useTempDirs } from '../../../test/support/repair-projects.ts';

const tempDir = useTempDirs();

/** The first 20 bytes of an ELF shared object (64-bit, little-endian) for `machine`, then padding. */
function elf(machine: number, osabi = 0): Uint8Array {
  const head = new Uint8Array(64);
  head.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, osabi]);
  new DataView(head.buffer).setUint16(16, 3, true); // ET_DYN
  new DataView(head.buffer).setUint16(18, machine, true);
  return head;
}

/** A Mach-O header: magic 0xfeedfacf written little-endian (cf fa ed fe), then the CPU type. */
function macho(cpu: number): Uint8Array {
  const head = new Uint8Array(32);
  head.set([0xcf, 0xfa, 0xed, 0xfe]);
  new DataView(head.buffer).setUint32(4, cpu, true);
  return head;
}

const ELF_X64 = elf(62);
const ELF_ARM64 = elf(183);
const MACHO_ARM64 = macho(0x0100000c);
const MACHO_X64 = macho(0x01000007);
const PE = new Uint8Array([
  0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0, 0, 0xb8, 0, 0, 0, 0, 0,
]);

describe('binaryTarget', () => {
  it('reads platform and CPU from ELF, Mach-O and PE headers', () => {
    expect(binaryTarget(ELF_X64)).toEqual({ platform: 'linux', arch: 'x64' });
    expect(binaryTarget(ELF_ARM64)).toEqual({ platform: 'linux', arch: 'arm64' });
    expect(binaryTarget(elf(62, 9))).toEqual({ platform: 'freebsd', arch: 'x64' });
    expect(binaryTarget(MACHO_ARM64)).toEqual({ platform: 'darwin', arch: 'arm64' });
    expect(binaryTarget(MACHO_X64)).toEqual({ platform: 'darwin', arch: 'x64' });
    expect(binaryTarget(new Uint8Array([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2]))).toEqual({
      platform: 'darwin',
      arch: null,
    });
    expect(binaryTarget(PE)).toEqual({ platform: 'win32', arch: null });
    expect(binaryTarget(new TextEncoder().encode('module.exports = {}'))).toBeNull();
  });

  it('judges a binary against a machine', () => {
    expect(isForeign({ platform: 'linux', arch: 'x64' }, 'linux', 'x64')).toBe(false);
    expect(isForeign({ platform: 'linux', arch: 'arm64' }, 'linux', 'x64')).toBe(true);
    expect(isForeign({ platform: 'darwin', arch: 'arm64' }, 'linux', 'arm64')).toBe(true);
    expect(isForeign({ platform: 'darwin', arch: null }, 'darwin', 'x64')).toBe(false);
    expect(isForeign({ platform: 'win32', arch: null }, 'linux', 'x64')).toBe(true);
  });
});

describe('foreignBinaries', () => {
  const project = async (): Promise<string> => {
    const dir = path.join(await tempDir(), 'node_modules');
    const put = async (rel: string, bytes: Uint8Array): Promise<void> => {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), bytes);
    };
    await put('bcrypt/lib/binding/napi-v3/bcrypt_lib.node', MACHO_ARM64);
    await put('sharp/build/Release/sharp.node', ELF_X64);
    await put('@parcel/watcher-linux-arm64/watcher.node', ELF_ARM64);
    await put('win-only/addon.node', PE);
    await put('.bin/looks-native.node', MACHO_X64);
    await put('plain/index.js', new TextEncoder().encode('module.exports = 1'));
    await put('not-native/fake.node', new TextEncoder().encode('hello, not a binary'));
    return dir;
  };

  it('finds the addons built for another platform or CPU, skipping .bin', async () => {
    const dir = await project();
    const found = await foreignBinaries(dir, 10, { platform: 'linux', arch: 'x64' });
    expect(found.sort()).toEqual([
      '@parcel/watcher-linux-arm64/watcher.node',
      'bcrypt/lib/binding/napi-v3/bcrypt_lib.node',
      'win-only/addon.node',
    ]);
    const onArm = await foreignBinaries(dir, 10, { platform: 'linux', arch: 'arm64' });
    expect(onArm.sort()).toEqual([
      'bcrypt/lib/binding/napi-v3/bcrypt_lib.node',
      'sharp/build/Release/sharp.node',
      'win-only/addon.node',
    ]);
  });

  it('stops after the limit and does not follow links', async () => {
    const dir = await project();
    expect(await foreignBinaries(dir, 1, { platform: 'linux', arch: 'x64' })).toHaveLength(1);
    const elsewhere = await tempDir();
    await writeFile(path.join(elsewhere, 'outside.node'), MACHO_ARM64);
    const clean = path.join(await tempDir(), 'node_modules');
    await mkdir(path.join(clean, 'ok'), { recursive: true });
    await writeFile(path.join(clean, 'ok', 'native.node'), ELF_X64);
    await symlink(elsewhere, path.join(clean, 'linked'));
    expect(await foreignBinaries(clean, 5, { platform: 'linux', arch: 'x64' })).toEqual([]);
  });

  it("sees this machine's own binaries as native, by default", async () => {
    const dir = path.join(await tempDir(), 'node_modules');
    await mkdir(path.join(dir, 'self'), { recursive: true });
    // The Node binary running this test is an executable for this very machine.
    const { readFile } = await import('node:fs/promises');
    const head = (await readFile(process.execPath)).subarray(0, 20);
    await writeFile(path.join(dir, 'self', 'addon.node'), head);
    expect(await foreignBinaries(dir)).toEqual([]);
    expect(await foreignBinaries(path.join(dir, 'missing'))).toEqual([]);
  });
});
