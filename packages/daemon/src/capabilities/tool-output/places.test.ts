import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findFirstError, PathMap } from './first-error.ts';
import { placeInMessage } from './places.ts';
import { makeTempDir } from '../../../test/support/temp-files.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-places-'));
  await mkdir(path.join(dir, 'src'), { recursive: true });
  await writeFile(path.join(dir, 'src/main.js'), 'export const cart = {;\n');
  await writeFile(path.join(dir, 'src/App.js'), '');
});
afterEach(() => cleanup());

describe('places as tools print them: one reading for the first error and for ScanBot', () => {
  it("counts Rollup's 0-based column from 1, in the first error as in the diagnosis", async () => {
    // Rollup 4's own words (capabilities/diagnose/fixtures): the caret stands under column 22.
    const text = await readFile(
      path.join(import.meta.dirname, '../diagnose/fixtures/rollup-syntax-error.txt'),
      'utf8',
    );
    const lines = text.split('/PROJECT').join(dir).split('\n');
    const first = findFirstError(lines, { projectDir: dir, cwd: dir });
    expect(first?.location).toEqual({ file: 'src/main.js', line: 1, column: 22 });
    const stated = lines.find((l) => l.includes('RollupError: src/main.js'))!;
    expect(placeInMessage(stated, undefined, new PathMap({ projectDir: dir, cwd: dir }))).toEqual(
      first?.location,
    );
  });

  it("reads Babel's place from its message, and svelte-check's from the line above", () => {
    const paths = new PathMap({ projectDir: dir, cwd: dir });
    const babel = `SyntaxError: ${dir}/src/App.js: Unexpected token, expected "," (2:37)`;
    expect(placeInMessage(babel, undefined, paths)).toEqual({ file: 'src/App.js', line: 2, column: 38 });
    expect(placeInMessage('Error: Type error (ts)', `${dir}/src/App.js:3:7`, paths)).toEqual({
      file: 'src/App.js',
      line: 3,
      column: 7,
    });
    expect(placeInMessage('Error: nothing here', 'not a place', paths)).toBeUndefined();
  });
});
