import { copyFileSync, mkdirSync } from 'node:fs';
import { walk } from '../../fs/walk.ts';

/**
 * What a published app or a saved ZIP leaves out of a build output: installed packages, and every dot
 * entry (.env, .git, editor folders) — a static site's output is its project folder, secrets included.
 * The same entries the build's own file list (build_complete `files`) leaves out, and more.
 */
export const leftOut = (rel: string): boolean =>
  rel.split('/').some((name) => name === 'node_modules' || name.startsWith('.'));

/**
 * Copies the regular files and folders of `source` into the new folder `target` (which must not
 * exist). Links are never copied nor followed: a link in a project could lead anywhere on this
 * machine. Returns the number of files copied.
 */
export async function copyTree(source: string, target: string): Promise<number> {
  mkdirSync(target);
  let files = 0;
  for await (const entry of walk(source, { exclude: (rel) => leftOut(rel) })) {
    const to = `${target}/${entry.rel}`;
    if (entry.kind === 'dir') mkdirSync(to);
    else if (entry.kind === 'file') {
      copyFileSync(entry.abs, to);
      files += 1;
    }
  }
  return files;
}
