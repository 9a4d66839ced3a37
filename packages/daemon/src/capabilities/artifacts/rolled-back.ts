import fs from 'node:fs';
import path from 'node:path';
import type { HomeLayout } from '../../home-layout.ts';

/**
 * A plain static site or a server app is served from the project's own files, which a rollback does
 * not rewrite (they are what the next build builds). Rolled back, it is served from the earlier
 * build's tree instead, kept at FORGE_HOME/rolled-back/<project>/tree with the build it is of beside
 * it. The tree counts only while that build is the project's output: the next successful build
 * becomes the output and the project's files are served again, with nothing to clean up first.
 */
export const rolledBackTreeOf = (layout: HomeLayout, name: string): string =>
  path.join(layout.rolledBackDir(name), 'tree');

const markerOf = (layout: HomeLayout, name: string): string => path.join(layout.rolledBackDir(name), 'build');

/** The tree to serve for `buildId`, the project's current output, when it is a rolled-back one. */
export function rolledBackTree(
  layout: HomeLayout,
  name: string,
  buildId: string | null | undefined,
): string | null {
  if (!buildId) return null;
  let marked: string;
  try {
    marked = fs.readFileSync(markerOf(layout, name), 'utf8').trim();
  } catch {
    return null;
  }
  const tree = rolledBackTreeOf(layout, name);
  return marked === buildId && fs.existsSync(tree) ? tree : null;
}

/** Record which build the tree in place is of (written whole, by rename). */
export function markRolledBackTree(layout: HomeLayout, name: string, buildId: string): void {
  const marker = markerOf(layout, name);
  const partial = `${marker}.partial-${process.pid}`;
  fs.writeFileSync(partial, `${buildId}\n`);
  fs.renameSync(partial, marker);
}
