import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_LISTED_TOOL_ERRORS, type BuildError } from '@forge/shared';
import { OutputEvidence } from './first-error.ts';
import { makeTempDir } from '../../../test/support/temp-files.ts';
import { caseNamed, PROJECT_PLACEHOLDER } from '../diagnose/fixtures/cases.ts';

/**
 * Every error a failed command printed, read by the same rules as its first error line. The outputs
 * are what tsc 6, esbuild 0.28, webpack 5, Vite 7/8 and Babel 8 printed on real broken projects
 * (capabilities/diagnose/fixtures/capture.ts and capabilities/tool-output/fixtures/first-error), colour codes kept.
 */
const DIAGNOSE_FIXTURES = path.join(import.meta.dirname, '../diagnose/fixtures');
const FIRST_ERROR_FIXTURES = path.join(import.meta.dirname, 'fixtures', 'first-error');
const RECORDED_DIR = '/home/ana/.forge/projects/shop';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-tool-errors-'));
});
afterEach(() => cleanup());

async function write(files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
}

/** The errors OutputEvidence lists for the lines, fed one by one as a running command prints them. */
function listed(lines: string[]): Pick<BuildError, 'errors' | 'errorCount' | 'firstLine'> {
  const output = new OutputEvidence({ projectDir: dir });
  for (const text of lines) output.onLine({ text });
  const { errors, errorCount, firstLine } = output.evidence();
  return { errors, errorCount, firstLine };
}

/** A capture case's files written into the project, and what its command printed there. */
async function captured(name: string): Promise<string[]> {
  await write(caseNamed(name).files);
  const text = await readFile(path.join(DIAGNOSE_FIXTURES, `${name}.txt`), 'utf8');
  return text.split(PROJECT_PLACEHOLDER).join(dir).split('\n');
}

describe('every error a failed step printed', () => {
  it('tsc: every error with its place and code, in the order printed, the first primary', async () => {
    const found = listed(await captured('tsc-several-errors'));
    expect(found.errorCount).toBe(3);
    expect(found.errors).toEqual([
      {
        file: 'src/cart.ts',
        line: 1,
        column: 14,
        code: 'TS2322',
        message: "Type 'string' is not assignable to type 'number'.",
        tool: 'tsc',
        primary: true,
      },
      {
        file: 'src/cart.ts',
        line: 2,
        column: 14,
        code: 'TS2322',
        message: "Type 'number' is not assignable to type 'string'.",
        tool: 'tsc',
      },
      {
        file: 'src/index.ts',
        line: 1,
        column: 23,
        code: 'TS2307',
        message: "Cannot find module './missing' or its corresponding type declarations.",
        tool: 'tsc',
      },
    ]);
    // The build's first error line is still the first error.
    expect(found.firstLine).toBe("error TS2322: Type 'string' is not assignable to type 'number'.");
  });

  it('tsc before vite build: the type error and the missing file both', async () => {
    const found = listed(await captured('vite-tsc-several-errors'));
    expect(found.errors?.map((e) => [`${e.file}:${e.line}:${e.column}`, e.code])).toEqual([
      ['src/cart.ts:1:14', 'TS2322'],
      ['src/main.ts:1:24', 'TS2307'],
    ]);
  });

  it('esbuild: each "✘ [ERROR]" with the place under it (columns from 1)', async () => {
    const found = listed(await captured('esbuild-several-errors'));
    expect(found.errors).toEqual([
      {
        file: 'src/main.js',
        line: 1,
        column: 19,
        message: 'Could not resolve "./missing-a"',
        tool: 'esbuild',
        primary: true,
      },
      {
        file: 'src/main.js',
        line: 2,
        column: 19,
        message: 'Could not resolve "./missing-b"',
        tool: 'esbuild',
      },
    ]);
    expect(found.errorCount).toBe(2);
  });

  it('webpack: each "ERROR in" with its module place and message', async () => {
    const found = listed(await captured('webpack-several-errors'));
    expect(found.errors).toEqual([
      {
        file: 'src/cart.js',
        line: 1,
        column: 1,
        message: "Module not found: Error: Can't resolve './missing-b' in 'src'",
        tool: 'webpack',
        primary: true,
      },
      {
        file: 'src/index.js',
        line: 1,
        column: 1,
        message: "Module not found: Error: Can't resolve './missing-a' in 'src'",
        tool: 'webpack',
      },
    ]);
  });

  it('Vite (Rolldown): its one error, the "[vite]:" tag off, once although printed twice', async () => {
    await write({ 'src/main.ts': '' });
    const text = await readFile(path.join(FIRST_ERROR_FIXTURES, 'vite8-unresolved-import.log'), 'utf8');
    const found = listed(text.split(RECORDED_DIR).join(dir).split('\n'));
    expect(found.errorCount).toBe(1);
    expect(found.errors).toEqual([
      {
        message: 'Rolldown failed to resolve import "left-pad-missing" from "src/main.ts".',
        tool: 'vite',
        primary: true,
      },
    ]);
  });

  it("Angular's esbuild builder: the TS code under its ✘ [ERROR], the place under it", async () => {
    await write({ 'src/app/app.component.ts': '' });
    const text = await readFile(path.join(FIRST_ERROR_FIXTURES, 'angular-esbuild-ts.log'), 'utf8');
    const found = listed(text.split(RECORDED_DIR).join(dir).split('\n'));
    expect(found.errors).toEqual([
      {
        file: 'src/app/app.component.ts',
        line: 11,
        column: 3,
        code: 'TS2322',
        message: "Type 'string' is not assignable to type 'number'.",
        tool: 'esbuild',
        primary: true,
      },
    ]);
  });

  it('Babel: the syntax error with its place (its columns start at 0)', async () => {
    const found = listed(await captured('babel-syntax-error'));
    expect(found.errors).toEqual([
      {
        file: 'src/App.js',
        line: 2,
        column: 38,
        message: 'SyntaxError: src/App.js: Unexpected token, expected "," (2:37)',
        tool: 'babel',
        primary: true,
      },
    ]);
  });

  it('ESLint (stylish): each error under its file, with the rule as its code; warnings left out', async () => {
    await write({ 'src/a.js': '', 'src/b.js': '' });
    const found = listed([
      '',
      `${dir}/src/a.js`,
      "  1:7  error    'unused' is assigned a value but never used  no-unused-vars",
      '  2:1  warning  Unexpected console statement                  no-console',
      "  3:5  error    'missing' is not defined                      no-undef",
      '',
      `${dir}/src/b.js`,
      '  4:10  error  Parsing error: Unexpected token }',
      '',
      '✖ 4 problems (3 errors, 1 warning)',
    ]);
    expect(found.errors?.map((e) => [`${e.file}:${e.line}:${e.column}`, e.code, e.message, e.tool])).toEqual([
      ['src/a.js:1:7', 'no-unused-vars', "'unused' is assigned a value but never used", 'eslint'],
      ['src/a.js:3:5', 'no-undef', "'missing' is not defined", 'eslint'],
      ['src/b.js:4:10', undefined, 'Parsing error: Unexpected token }', 'eslint'],
    ]);
  });

  it('lists the first MAX_LISTED_TOOL_ERRORS and counts them all; a place outside the project is none', async () => {
    await write({ 'src/a.ts': '' });
    const lines = Array.from(
      { length: 70 },
      (_, i) => `src/a.ts:${i + 1}:3 - error TS2322: Type 'string' is not assignable to type 'number'.`,
    );
    lines.push("/etc/passwd:1:1 - error TS1005: ';' expected.");
    const found = listed(lines);
    expect(found.errorCount).toBe(71);
    expect(found.errors).toHaveLength(MAX_LISTED_TOOL_ERRORS);
    expect(found.errors?.[49]).toMatchObject({ file: 'src/a.ts', line: 50 });
    const outside = listed(["/etc/passwd:1:1 - error TS1005: ';' expected."]);
    expect(outside.errors).toEqual([
      { code: 'TS1005', message: "';' expected.", tool: 'tsc', primary: true },
    ]);
  });

  it('an output without a tool error lists none (the first error line says it all)', async () => {
    const found = listed([
      'npm error code E404',
      'npm error 404 Not Found - GET https://registry.npmjs.org/x',
    ]);
    expect(found.errors).toBeUndefined();
    expect(found.errorCount).toBeUndefined();
  });
});
