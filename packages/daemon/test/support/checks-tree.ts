/** Test helper (imported by tests only): writes a tree of files under a fresh temp folder. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type TreeSpec = Record<string, string | Uint8Array>;

export async function writeTree(root: string, files: TreeSpec): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/** A fresh temp folder and its cleanup. */
export async function tempDir(
  prefix = 'forge-checks-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
