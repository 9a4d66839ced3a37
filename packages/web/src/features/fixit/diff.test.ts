import { describe, expect, it } from 'vitest';
import { diffStats, parseUnifiedDiff } from './diff.ts';

const DIFF = [
  'diff --git a/build.mjs b/build.mjs',
  'index 3b18e51..a3c2f0d 100644',
  '--- a/build.mjs',
  '+++ b/build.mjs',
  '@@ -2,3 +2,3 @@ // Builds the page',
  " import fs from 'node:fs';",
  "-import { x } from './Lib.mjs';",
  "+import { x } from './lib.mjs';",
  ' ',
  '\\ No newline at end of file',
  '',
].join('\n');

describe('parseUnifiedDiff', () => {
  it('classifies each line and numbers it in the old and the new file', () => {
    expect(parseUnifiedDiff(DIFF)).toEqual([
      { kind: 'file', text: 'build.mjs' },
      { kind: 'hunk', text: '@@ -2,3 +2,3 @@ // Builds the page' },
      { kind: 'context', text: "import fs from 'node:fs';", oldLine: 2, newLine: 2 },
      { kind: 'remove', text: "import { x } from './Lib.mjs';", oldLine: 3 },
      { kind: 'add', text: "import { x } from './lib.mjs';", newLine: 3 },
      { kind: 'context', text: '', oldLine: 4, newLine: 4 },
      { kind: 'note', text: 'No newline at end of file' },
    ]);
  });

  it('names each file of a diff of several, a deleted one as deleted, and counts the changes', () => {
    const lines = parseUnifiedDiff(
      [
        '--- a/package.json',
        '+++ b/package.json',
        '@@ -1,3 +1,4 @@',
        ' {',
        '   "dependencies": {',
        '+    "canvas-confetti": "^1.9.3",',
        '     "react": "^19.0.0"',
        '--- a/old.js',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-gone',
      ].join('\r\n'),
    );
    expect(lines.filter((l) => l.kind === 'file').map((l) => l.text)).toEqual([
      'package.json',
      'old.js (deleted)',
    ]);
    expect(lines.find((l) => l.kind === 'add')).toEqual({
      kind: 'add',
      text: '    "canvas-confetti": "^1.9.3",',
      newLine: 3,
    });
    expect(diffStats(lines)).toEqual({ added: 1, removed: 1 });
  });

  it('keeps text that is not a diff as plain lines', () => {
    expect(parseUnifiedDiff('reinstalled without the frozen lockfile\n')).toEqual([
      { kind: 'context', text: 'reinstalled without the frozen lockfile' },
    ]);
    expect(parseUnifiedDiff('')).toEqual([]);
  });

  it('reads a diff cut short (why-red sends at most MAX_DIFF_LINES of one) line by line', () => {
    // Its hunk header promises more lines than follow: jsdiff's parsePatch refuses such a diff
    // (docs/decisions.md), this reader shows what is there.
    const cut = ['--- a/x.js', '+++ b/x.js', '@@ -1,40 +1,40 @@', ' a', '-b', '+B'].join('\n');
    expect(parseUnifiedDiff(cut).slice(2)).toEqual([
      { kind: 'context', text: 'a', oldLine: 1, newLine: 1 },
      { kind: 'remove', text: 'b', oldLine: 2 },
      { kind: 'add', text: 'B', newLine: 2 },
    ]);
  });
});
