import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Blueprint } from '@forge/shared';
import { realWithin } from '../../fs/contain.ts';
import { LOCKFILES, installTool, installWritesLockfile } from './install-args.ts';

/** Reading the project for a plan: only files inside it, links followed, never beyond it. */

/** `dir` (project-relative, "." for the root) joined with `name`, forward slashes, no "./". */
export const relJoin = (dir: string, name: string): string =>
  path.posix.normalize(path.posix.join(dir, name));

/** A project file's bytes, or null when it is missing or lies (through a link) outside the project. */
export async function readInsideBytes(projectDir: string, rel: string): Promise<Buffer | null> {
  const root = await realpath(projectDir);
  const real = await realWithin(root, path.join(root, rel));
  if (real === null) return null;
  try {
    return await readFile(real);
  } catch (error) {
    if (['EISDIR', 'ENOENT'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}

/** A project file's text, or null when it is missing or lies (through a link) outside the project. */
export async function readInside(projectDir: string, rel: string): Promise<string | null> {
  return (await readInsideBytes(projectDir, rel))?.toString('utf8') ?? null;
}

/** Whether a regular file is at project-relative `rel` (links followed, inside the project). */
export async function fileInside(projectDir: string, rel: string): Promise<boolean> {
  const root = await realpath(projectDir);
  const real = await realWithin(root, path.join(root, rel));
  return real !== null && (await stat(real)).isFile();
}

/** A package.json: where it is, its text as written and what it says. */
export interface Manifest {
  /** Project-relative path. */
  file: string;
  text: string;
  data: Record<string, unknown>;
}

/** The package.json at project-relative `rel`, or null when it is missing or not a JSON object. */
export async function readManifest(projectDir: string, rel: string): Promise<Manifest | null> {
  const text = await readInside(projectDir, rel);
  if (text === null) return null;
  try {
    const data: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
    return { file: rel, text, data: data as Record<string, unknown> };
  } catch {
    return null;
  }
}

/** The app's package.json (the one in blueprint.appDir), else the project root's. */
export async function appManifest(projectDir: string, blueprint: Blueprint): Promise<Manifest | null> {
  const own = await readManifest(projectDir, relJoin(blueprint.appDir, 'package.json'));
  return own ?? (blueprint.appDir === '.' ? null : readManifest(projectDir, 'package.json'));
}

/** A string-valued object field of a manifest ("dependencies", "scripts"), or null when it has none. */
export function objectField(manifest: Manifest, field: string): Record<string, unknown> | null {
  const value = manifest.data[field];
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The lockfile the next install reads and (unlocked) rewrites: where it is, and whether it exists yet. */
export interface Lockfile {
  /** Project-relative path. */
  file: string;
  exists: boolean;
}

/**
 * The lockfile of the install in blueprint.installDir: the package manager's own when there is one;
 * else the one an unlocked install will create (none for a store install, which writes no lockfile,
 * or for a command of the project's own).
 */
export async function lockfileOf(projectDir: string, blueprint: Blueprint): Promise<Lockfile | null> {
  const argv = blueprint.install ?? [];
  const tool = installTool(argv) ?? blueprint.packageManager;
  if (!tool) return null;
  // npm scripts with a pnpm store install: the project's lockfile would still be npm's.
  const pm = blueprint.packageManager ?? tool;
  for (const name of LOCKFILES[pm]) {
    const file = relJoin(blueprint.installDir, name);
    if (await fileInside(projectDir, file)) return { file, exists: true };
  }
  if (!installTool(argv) || !installWritesLockfile(argv)) return null;
  return { file: relJoin(blueprint.installDir, LOCKFILES[tool][0]!), exists: false };
}
