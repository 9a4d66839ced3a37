import { open, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Native addons (`.node` files) built for another machine, found by their executable header: ELF
 * (Linux and the BSDs), Mach-O (macOS) or PE (Windows), and the CPU it names. Only the first 20
 * bytes of each file are read.
 */

/** The platform and CPU a binary header names, in Node's words (process.platform, process.arch). */
export interface BinaryTarget {
  /** "linux", "freebsd", "darwin", "win32"… */
  platform: string;
  /** "x64", "arm64", … or null when the header does not say within the bytes read (PE) or says several (a universal Mach-O). */
  arch: string | null;
}

const HEAD_BYTES = 20;

/** ELF e_machine → Node's arch. */
const ELF_MACHINES: Readonly<Record<number, string>> = {
  3: 'ia32',
  8: 'mips',
  20: 'ppc',
  21: 'ppc64',
  22: 's390x',
  40: 'arm',
  62: 'x64',
  183: 'arm64',
  243: 'riscv64',
  258: 'loong64',
};
/** ELF EI_OSABI → platform (0, System V, is what Linux toolchains write). */
const ELF_OSABI: Readonly<Record<number, string>> = { 0: 'linux', 3: 'linux', 9: 'freebsd', 12: 'openbsd' };
/** Mach-O cputype → Node's arch. */
const MACHO_CPUS: Readonly<Record<number, string>> = {
  7: 'ia32',
  0x01000007: 'x64',
  12: 'arm',
  0x0100000c: 'arm64',
};

/** What an executable header says it was built for, or null when it is not one Forge reads. */
export function binaryTarget(head: Uint8Array): BinaryTarget | null {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (head.length >= 20 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) {
    const littleEndian = head[5] !== 2;
    const machine = view.getUint16(18, littleEndian);
    return {
      platform: ELF_OSABI[head[7]!] ?? 'linux',
      arch: ELF_MACHINES[machine] ?? `elf-machine-${machine}`,
    };
  }
  if (head.length >= 8) {
    const magic = view.getUint32(0, false);
    if (magic === 0xfeedface || magic === 0xfeedfacf || magic === 0xcefaedfe || magic === 0xcffaedfe) {
      const littleEndian = magic === 0xcefaedfe || magic === 0xcffaedfe;
      const cpu = view.getUint32(4, littleEndian);
      return { platform: 'darwin', arch: MACHO_CPUS[cpu] ?? `macho-cpu-${cpu}` };
    }
    // A universal binary: several CPUs, all macOS.
    if (magic === 0xcafebabe) return { platform: 'darwin', arch: null };
  }
  // The PE header, which names the CPU, lies beyond the bytes read: the platform is enough.
  if (head.length >= 2 && head[0] === 0x4d && head[1] === 0x5a) return { platform: 'win32', arch: null };
  return null;
}

/** Whether a binary for `target` cannot load on a machine with this platform and arch. */
export function isForeign(
  target: BinaryTarget,
  platform: string = process.platform,
  arch: string = process.arch,
): boolean {
  // Android loads Linux ELF objects; the BSDs mark theirs with their own OS ABI.
  const samePlatform =
    target.platform === platform || (target.platform === 'linux' && platform === 'android');
  if (!samePlatform) return true;
  return target.arch !== null && target.arch !== arch;
}

/** Bounds of the walk: node_modules can hold hundreds of thousands of files. */
const MAX_DEPTH = 12;
const MAX_DIRS = 20_000;

/**
 * Native `.node` files under `nodeModulesDir` built for another platform or CPU than this machine's,
 * as paths relative to `nodeModulesDir` (forward slashes). The walk skips `.bin` and links, is bounded,
 * and stops after `limit` hits.
 */
export async function foreignBinaries(
  nodeModulesDir: string,
  limit = 5,
  machine: { platform: string; arch: string } = { platform: process.platform, arch: process.arch },
): Promise<string[]> {
  const hits: string[] = [];
  const queue: { dir: string; depth: number }[] = [{ dir: nodeModulesDir, depth: 0 }];
  let visited = 0;
  while (queue.length > 0 && hits.length < limit && visited < MAX_DIRS) {
    const { dir, depth } = queue.shift()!;
    visited++;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.bin' && depth < MAX_DEPTH) queue.push({ dir: full, depth: depth + 1 });
      } else if (entry.isFile() && entry.name.endsWith('.node')) {
        const target = await readTarget(full);
        if (target && isForeign(target, machine.platform, machine.arch)) {
          hits.push(path.relative(nodeModulesDir, full).split(path.sep).join('/'));
          if (hits.length >= limit) break;
        }
      }
    }
  }
  return hits;
}

async function readTarget(file: string): Promise<BinaryTarget | null> {
  let handle;
  try {
    handle = await open(file, 'r');
    const head = new Uint8Array(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    return binaryTarget(head.subarray(0, bytesRead));
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}
