import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { walkFiles } from '../../fs/walk.ts';

/**
 * Where the Forge that runs this daemon lives: the folder holding packages/{daemon,cli,web}. Found
 * from this module's own location (packages/daemon/dist/main.js when built, packages/daemon/src/…
 * under tsx), by walking up to the package.json named @forge/daemon. Works the same in the repository
 * and in an installed archive, which keeps that layout, so an installed Forge can package itself.
 */
export function findForgeRoot(from: string = fileURLToPath(import.meta.url)): string | null {
  let dir = path.dirname(from);
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
        if (pkg.name === '@forge/daemon') return path.resolve(dir, '..', '..');
      } catch {
        // An unreadable package.json on the way up is not ours: keep walking.
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * The packages an archive carries, each as its built dist/ plus a production package.json. The
 * terminal dashboard is one of them: `forge tui` imports it at run time.
 */
export const PACKAGED = [
  { dir: 'daemon', name: '@forge/daemon', what: 'daemon' },
  { dir: 'cli', name: '@forge/cli', what: 'CLI' },
  { dir: 'web', name: '@forge/web', what: 'web app' },
  { dir: 'tui', name: '@forge/tui', what: 'terminal dashboard' },
] as const;

/** Files of a package besides dist/ that its built code runs (the CLI's `forge` entry script). */
export const EXTRA_FILES: Record<string, string[]> = { cli: ['bin/forge.js'] };

/** The entry of each built package: an archive without them would not start. */
export const ENTRY_FILES: Record<string, string> = {
  daemon: 'dist/main.js',
  cli: 'dist/forge.js',
  web: 'dist/index.html',
  tui: 'dist/index.js',
};

/**
 * What the built packages look like now (every file's path, size and mtime), to tell whether a
 * `pnpm build` rewrote them while they were being copied (tsup and Vite empty dist/ first).
 */
export async function buildsFingerprint(root: string): Promise<string> {
  const parts: string[] = [];
  for (const p of PACKAGED) {
    const { files } = await walkFiles(path.join(root, 'packages', p.dir, 'dist'), { stat: true });
    for (const f of files) parts.push(`${p.dir}/${f.rel}:${f.size ?? 0}:${f.mtimeMs ?? 0}`);
  }
  return parts.sort().join('\n');
}

/**
 * The reason this root cannot be packaged, or null. Every missing dist/ is named, with the command
 * that builds it, since that is what the user has to do.
 */
export function missingBuilds(root: string): string | null {
  const missing = PACKAGED.filter(
    (p) =>
      !existsSync(path.join(root, 'packages', p.dir, ENTRY_FILES[p.dir]!)) ||
      !existsSync(path.join(root, 'packages', p.dir, 'package.json')),
  );
  if (missing.length === 0) return null;
  const list = missing.map((p) => `${p.what} (packages/${p.dir}/dist)`).join(', ');
  return `The built ${list} ${missing.length === 1 ? 'is' : 'are'} missing in ${root}: run \`pnpm build\` there first.`;
}
