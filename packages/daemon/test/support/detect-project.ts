import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { Blueprint, BlueprintDecision } from '@forge/shared';

/** File contents by project-relative path; objects are written as JSON. */
export type ProjectTree = Record<string, string | object>;

/**
 * Fixture projects for detection tests: each call writes a tree into a fresh temp dir, removed after
 * the test. Call once per test file, at top level.
 */
export function useProjects(): (tree: ProjectTree) => Promise<string> {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
  });
  return async (tree) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-detect-'));
    dirs.push(dir);
    for (const [rel, content] of Object.entries(tree)) {
      const file = path.join(dir, rel);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    }
    return dir;
  };
}

/** The last decision about `field` (overrides come after detection). */
export function decision(bp: Blueprint, field: string): BlueprintDecision {
  const found = bp.decisions.filter((d) => d.field === field).at(-1);
  if (!found) throw new Error(`no decision about ${field}: ${JSON.stringify(bp.decisions, null, 2)}`);
  return found;
}
