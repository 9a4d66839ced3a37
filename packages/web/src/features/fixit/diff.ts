/**
 * RepairBot's repairs carry their change as unified diff text (`diff -u` / git style). FixIt shows it
 * line by line — added lines green, removed red — with each line's number in the old and new file,
 * so it reads like a review, not like raw patch text.
 */

export type DiffLineKind = 'file' | 'hunk' | 'add' | 'remove' | 'context' | 'note';

export interface DiffLine {
  kind: DiffLineKind;
  /** The line as shown: without its +/-/space marker for add, remove and context lines. */
  text: string;
  /** Line number in the old file (remove, context). */
  oldLine?: number;
  /** Line number in the new file (add, context). */
  newLine?: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** `a/src/App.tsx` → `src/App.tsx`; `/dev/null` stays as is. */
const filePath = (header: string): string => {
  const name = header.slice(4).split('\t')[0]!.trim();
  return /^[ab]\//.test(name) ? name.slice(2) : name;
};

/**
 * The lines of a unified diff, classified. File headers (`--- a/x`, `+++ b/x`) collapse into one
 * `file` line naming the file; `diff --git` / `index` lines are dropped; "\ No newline at end of
 * file" is a `note`. Text that is not a diff at all comes back as context lines, never lost. Not
 * jsdiff's parsePatch: it refuses a hunk with fewer lines than its header says, and the diffs of
 * why-red are cut at MAX_DIFF_LINES (docs/decisions.md).
 */
export function parseUnifiedDiff(diff: string): DiffLine[] {
  const out: DiffLine[] = [];
  const lines = diff.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      const from = filePath(line);
      const to = filePath(lines[i + 1]!);
      out.push({ kind: 'file', text: to === '/dev/null' ? `${from} (deleted)` : to });
      i++;
      inHunk = false;
      continue;
    }
    if (!inHunk && (line.startsWith('diff ') || line.startsWith('index '))) continue;
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
      out.push({ kind: 'hunk', text: line });
      continue;
    }
    if (!inHunk) {
      out.push({ kind: 'context', text: line });
      continue;
    }
    const marker = line[0];
    const text = line.slice(1);
    if (marker === '+') out.push({ kind: 'add', text, newLine: newLine++ });
    else if (marker === '-') out.push({ kind: 'remove', text, oldLine: oldLine++ });
    else if (marker === '\\') out.push({ kind: 'note', text: line.slice(2) });
    else out.push({ kind: 'context', text, oldLine: oldLine++, newLine: newLine++ });
  }
  return out;
}

/** How many lines a diff adds and removes ("+3 −1" next to a repair). */
export function diffStats(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.kind === 'add') added++;
    else if (line.kind === 'remove') removed++;
  }
  return { added, removed };
}
