import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import { zipDirToFile } from '../../capabilities/artifacts/zip-dir.ts';
import { writeBundle, type BundledExtension } from '../extensions/bundled.ts';
import { MANIFEST_FILE } from '../extensions/limits.ts';
import { INSTALL_SH, productionManifest, readme, rootManifest } from './manifests.ts';
import { buildsFingerprint, EXTRA_FILES, missingBuilds, PACKAGED } from './source.ts';

/** How many archives FORGE_HOME/packages keeps; older ones are removed after each new one. */
export const KEEP_ARCHIVES = 3;
const ARCHIVE_RE = /^forge-.+\.zip$/;

export interface PlatformArchive {
  /** forge-<version>-<yyyymmdd-hhmmss>.zip */
  name: string;
  file: string;
  bytes: number;
  files: number;
}

/** A packaging failure the user can act on (missing builds): its message is shown as is. */
export class PackagingError extends Error {
  override readonly name = 'PackagingError';
}

const stamp = (d: Date): string => d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

/** The archives in `dir`, newest first (by modification time, then name). */
export async function listArchives(
  dir: string,
): Promise<Array<{ name: string; file: string; mtimeMs: number; bytes: number }>> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const found = await Promise.all(
    names
      .filter((n) => ARCHIVE_RE.test(n))
      .map(async (name) => {
        const file = path.join(dir, name);
        const s = await stat(file).catch(() => null);
        return s?.isFile() ? { name, file, mtimeMs: s.mtimeMs, bytes: s.size } : null;
      }),
  );
  return found
    .filter((f): f is NonNullable<typeof f> => f !== null)
    .sort((a, b) => b.mtimeMs - a.mtimeMs || b.name.localeCompare(a.name));
}

export interface BuildArchiveOptions {
  /** The Forge to package (findForgeRoot()). */
  root: string;
  /** FORGE_HOME: extensions are read from it, the archive goes to its packages/ folder. */
  home: string;
  version: string;
  now?: Date;
  /**
   * The installed extensions (name and current version), from the extension registry. Without it,
   * the newest version folder of each extension in FORGE_HOME/extensions that has a manifest.
   */
  extensions?: readonly BundledExtension[];
}

/**
 * Package the platform: stage `forge-<version>-<date>/` (the built packages with production
 * package.json files, the root workspace manifest, the installed extensions, install.sh, README.md)
 * in FORGE_HOME/tmp, zip it next to its final place, rename it in (a download never sees half an
 * archive), then keep the newest KEEP_ARCHIVES. Throws PackagingError when a build is missing.
 */
export async function buildPlatformArchive(opts: BuildArchiveOptions): Promise<PlatformArchive> {
  const missing = missingBuilds(opts.root);
  if (missing) throw new PackagingError(missing);
  const now = opts.now ?? new Date();
  const stem = `forge-${opts.version}-${stamp(now)}`;
  const outDir = path.join(opts.home, 'packages');
  const tmpBase = path.join(opts.home, 'tmp');
  await mkdir(outDir, { recursive: true });
  await mkdir(tmpBase, { recursive: true });
  const staging = await mkdtemp(path.join(tmpBase, 'package-'));
  const partial = path.join(outDir, `.${stem}.zip.partial`);
  try {
    const top = path.join(staging, stem);
    const before = await buildsFingerprint(opts.root);
    for (const p of PACKAGED) {
      const from = path.join(opts.root, 'packages', p.dir);
      const to = path.join(top, 'packages', p.dir);
      await cp(path.join(from, 'dist'), path.join(to, 'dist'), { recursive: true });
      for (const extra of EXTRA_FILES[p.dir] ?? []) {
        await cp(path.join(from, extra), path.join(to, extra), { recursive: true });
      }
      const pkg = JSON.parse(await readFile(path.join(from, 'package.json'), 'utf8')) as Parameters<
        typeof productionManifest
      >[1];
      await writeJson(path.join(to, 'package.json'), productionManifest(p.dir, pkg));
    }
    if ((await buildsFingerprint(opts.root)) !== before || missingBuilds(opts.root)) {
      throw new PackagingError(
        `The built packages in ${opts.root} changed while they were being copied (a \`pnpm build\` ran): package again once it has finished.`,
      );
    }
    await writeJson(path.join(top, 'package.json'), rootManifest(opts.version));
    await writeFile(path.join(top, 'install.sh'), INSTALL_SH, { mode: 0o755 });
    await writeFile(path.join(top, 'README.md'), readme(stem, opts.version, now.toISOString()));
    await bundleExtensions(path.join(opts.home, 'extensions'), path.join(top, 'extensions'), opts.extensions);
    const result = await zipDirToFile(staging, partial);
    if (result.aborted) throw new PackagingError('Writing the archive was interrupted.');
    const file = path.join(outDir, `${stem}.zip`);
    await rename(partial, file);
    await prune(outDir);
    return { name: `${stem}.zip`, file, bytes: result.bytes, files: result.files };
  } finally {
    await rm(partial, { force: true });
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * The current version of each installed extension into the archive's extensions/<name>/<version>/,
 * listed in extensions/bundle.json, which the installed daemon registers at its start
 * (extensions/bundled.ts). Previous versions kept for a rollback and the extension service's own
 * hidden files stay behind.
 */
async function bundleExtensions(
  from: string,
  to: string,
  installed: readonly BundledExtension[] | undefined,
): Promise<void> {
  await mkdir(to, { recursive: true });
  const bundle: BundledExtension[] = [];
  for (const ext of installed ?? (await newestOnDisk(from))) {
    const source = path.join(from, ext.name, ext.version);
    if (!existsSync(path.join(source, MANIFEST_FILE))) continue;
    await cp(source, path.join(to, ext.name, ext.version), { recursive: true });
    bundle.push({ name: ext.name, version: ext.version });
  }
  await writeBundle(to, bundle);
}

async function newestOnDisk(dir: string): Promise<BundledExtension[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => !n.startsWith('.'));
  const found: BundledExtension[] = [];
  for (const name of names.sort()) {
    const versions = (await readdir(path.join(dir, name)).catch(() => [] as string[]))
      .filter((v) => semver.valid(v) !== null && existsSync(path.join(dir, name, v, MANIFEST_FILE)))
      .sort(semver.rcompare);
    if (versions[0] !== undefined) found.push({ name, version: versions[0] });
  }
  return found;
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

async function prune(dir: string): Promise<void> {
  const archives = await listArchives(dir);
  await Promise.all(archives.slice(KEEP_ARCHIVES).map((a) => rm(a.file, { force: true })));
}
