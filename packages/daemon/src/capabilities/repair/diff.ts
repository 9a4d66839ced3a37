import { createTwoFilesPatch } from 'diff';

/**
 * A unified diff of one file's change, git-style names (a/…, b/…, /dev/null for a file created or
 * deleted), without jsdiff's "=====" banner so it reads and applies like `git diff` output.
 * Empty when nothing changed.
 */
export function fileDiff(file: string, before: string | null, after: string | null): string {
  if (before === after) return '';
  const patch = createTwoFilesPatch(
    before === null ? '/dev/null' : `a/${file}`,
    after === null ? '/dev/null' : `b/${file}`,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: 3 },
  );
  const body = patch.replace(/^=+\n/, '');
  return body.includes('\n@@ ') ? body : '';
}

/** The diffs of several files, one after the other. */
export const unifiedDiff = (
  changes: readonly { file: string; before: string | null; after: string | null }[],
): string => changes.map((c) => fileDiff(c.file, c.before, c.after)).join('');
