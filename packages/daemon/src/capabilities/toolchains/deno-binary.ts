/**
 * Deno's npm package is a launcher (bin.cjs) that looks for its binary in an optional dependency per
 * platform (`@deno/linux-x64-glibc`, `@deno/darwin-arm64`…), which npm picks by os and cpu. Forge runs
 * the binary directly: no Node process in front of every deno command.
 */

/** The platform package that carries deno's binary here, or null where Deno publishes none. */
export function denoNativePackage(): string | null {
  const arch = process.arch === 'x64' || process.arch === 'arm64' ? process.arch : null;
  if (!arch) return null;
  switch (process.platform) {
    case 'linux':
      return `@deno/linux-${arch}-glibc`;
    case 'darwin':
      return `@deno/darwin-${arch}`;
    case 'win32':
      return `@deno/win32-${arch}`;
    default:
      return null;
  }
}

/** Path of deno's binary inside its platform package. */
export const denoBinaryIn = (pkgDir: string): string =>
  `${pkgDir}/${process.platform === 'win32' ? 'deno.exe' : 'deno'}`;
