import fs from 'node:fs';

/**
 * Bun's npm package carries no binary: an optional dependency per platform does
 * (`@oven/bun-linux-x64`, `-baseline` for CPUs without AVX2, `-musl` for Alpine…), and the package's
 * postinstall copies it into place. Forge installs without scripts and links the binary itself.
 */

const hasAvx2 = (): boolean => {
  try {
    return /\bavx2\b/.test(fs.readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    // Not Linux, or no /proc: assume a CPU of this decade.
    return true;
  }
};

const isMusl = (): boolean => {
  if (process.platform !== 'linux') return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return !report?.header?.glibcVersionRuntime;
};

/** The native packages that can run here, best first. */
export function bunNativePackages(): string[] {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const arch = process.arch === 'arm64' ? 'aarch64' : process.arch;
  const base = `@oven/bun-${platform}-${arch}${isMusl() ? '-musl' : ''}`;
  if (arch !== 'x64') return [base];
  return hasAvx2() ? [base, `${base}-baseline`] : [`${base}-baseline`];
}

/**
 * What npm will not install by itself: the baseline build on an x64 CPU without AVX2 (bun's package
 * lists only the AVX2 build as an optional dependency).
 */
export function bunExtraPackages(version: string): string[] {
  const [best] = bunNativePackages();
  return best?.endsWith('-baseline') ? [`${best}@${version}`] : [];
}

/** Path of bun's binary inside a native package. */
export const bunBinaryIn = (pkgDir: string): string =>
  `${pkgDir}/bin/${process.platform === 'win32' ? 'bun.exe' : 'bun'}`;
