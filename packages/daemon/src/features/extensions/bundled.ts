import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ExtensionName } from '@forge/shared';
import { writeFileAtomic } from '../../fs/atomic-write.ts';
import { findForgeRoot } from '../packaging/source.ts';

/**
 * Extensions bundled with an installed archive of Forge. PackageBot copies the current version of
 * each installed extension into the archive's `extensions/<name>/<version>/` and lists them in
 * `extensions/bundle.json`; the installed daemon registers them at start (service.ts). Which ones it
 * has offered is kept in FORGE_HOME/extensions/.bundled.json (hidden: never packaged itself), so a
 * second start adds nothing and an extension the user removed is not put back.
 */
export const BUNDLE_FILE = 'bundle.json';

/** The `extensions/` folder beside packages/ in an installed archive of Forge, or null outside one. */
export function bundledExtensionsDir(): string | null {
  const root = findForgeRoot();
  return root === null ? null : path.join(root, 'extensions');
}

const SEEN_FILE = '.bundled.json';

export const BundledExtension = z.object({
  name: ExtensionName,
  version: z.string().regex(/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/),
});
export type BundledExtension = z.infer<typeof BundledExtension>;
const Bundle = z.array(BundledExtension);
const Seen = z.record(z.string(), z.string());

/** The bundle's list; empty when there is none (a Forge run from its repository) or it is unreadable. */
export async function readBundle(dir: string): Promise<BundledExtension[]> {
  const text = await readFile(path.join(dir, BUNDLE_FILE), 'utf8').catch(() => null);
  if (text === null) return [];
  try {
    return Bundle.parse(JSON.parse(text));
  } catch {
    return [];
  }
}

export async function writeBundle(dir: string, bundle: readonly BundledExtension[]): Promise<void> {
  await writeFile(path.join(dir, BUNDLE_FILE), `${JSON.stringify(bundle, null, 2)}\n`);
}

/** name → the bundled version last offered. */
export async function readBundledSeen(extensionsDir: string): Promise<Record<string, string>> {
  const text = await readFile(path.join(extensionsDir, SEEN_FILE), 'utf8').catch(() => null);
  if (text === null) return {};
  try {
    return Seen.parse(JSON.parse(text));
  } catch {
    return {};
  }
}

export async function writeBundledSeen(
  extensionsDir: string,
  seen: Record<string, string>,
  scratchDir: string,
): Promise<void> {
  await mkdir(extensionsDir, { recursive: true });
  await writeFileAtomic(path.join(extensionsDir, SEEN_FILE), `${JSON.stringify(seen, null, 2)}\n`, {
    scratchDir,
  });
}
