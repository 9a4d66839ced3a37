import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ERROR_TAIL_LINES,
  findFirstError,
  OutputEvidence,
  type ErrorLocation,
  type FirstError,
} from './first-error.ts';
import { makeTempDir } from '../../../test/support/temp-files.ts';

/**
 * The fixtures are what the tools printed, captured from real runs (npm 11, pnpm 10, yarn 1.22,
 * Next.js 14.2, 15.5 and 16.4 (Turbopack) offline, Vite 7 and 8, tsc 6, esbuild 0.28, webpack 5, SvelteKit 2 on Vite 7,
 * Angular 19 with its esbuild and webpack builders, Node 20, Python 3), colour codes included. The
 * project they ran in is written /home/ana/.forge/projects/shop; each test puts its own folder there.
 */
const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'first-error');
const RECORDED_DIR = '/home/ana/.forge/projects/shop';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-first-error-'));
});
afterEach(() => cleanup());

/** The fixture's lines as the command would have printed them in `dir`. */
async function output(name: string): Promise<string[]> {
  const text = await readFile(path.join(FIXTURES, name), 'utf8');
  return text.split(RECORDED_DIR).join(dir).split('\n');
}

/** Creates the project files the output names (a place is only a place when its file exists). */
async function files(...names: string[]): Promise<void> {
  for (const name of names) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), '');
  }
}

const at = (file: string, line: number, column?: number): ErrorLocation => ({
  file,
  line,
  ...(column === undefined ? {} : { column }),
});

interface Case {
  fixture: string;
  files?: string[];
  expected: FirstError;
}

const CASES: Case[] = [
  {
    fixture: 'next15-google-font.log',
    files: ['app/layout.tsx'],
    expected: { firstLine: 'app/layout.tsx: `next/font` error: Failed to fetch `Inter` from Google Fonts.' },
  },
  {
    fixture: 'next14-google-font.log',
    files: ['app/layout.tsx'],
    expected: { firstLine: 'app/layout.tsx: `next/font` error: Failed to fetch `Inter` from Google Fonts.' },
  },
  {
    // Next 16 builds with Turbopack: the failing file is Next's own; the import trace names the project's.
    fixture: 'next16-turbopack-google-font.log',
    files: ['app/layout.tsx'],
    expected: { firstLine: 'app/layout.tsx: next/font: error: Failed to fetch Inter from Google Fonts.' },
  },
  {
    fixture: 'next16-turbopack-module-not-found.log',
    files: ['app/page.tsx'],
    expected: {
      firstLine: "Module not found: Can't resolve './missing-module'",
      location: at('app/page.tsx', 1, 1),
    },
  },
  {
    fixture: 'next16-type-error.log',
    files: ['app/page.tsx'],
    expected: {
      firstLine: "error TS2322: Type 'number' is not assignable to type 'string'.",
      location: at('app/page.tsx', 1, 7),
    },
  },
  {
    fixture: 'next15-module-not-found.log',
    files: ['app/page.tsx'],
    expected: { firstLine: "app/page.tsx: Module not found: Can't resolve './missing-module'" },
  },
  {
    fixture: 'next15-type-error.log',
    files: ['app/page.tsx'],
    expected: {
      firstLine: "Type error: Type 'number' is not assignable to type 'string'.",
      location: at('app/page.tsx', 1, 7),
    },
  },
  {
    fixture: 'vite8-unresolved-import.log',
    files: ['src/main.ts'],
    expected: {
      firstLine: '[vite]: Rolldown failed to resolve import "left-pad-missing" from "src/main.ts".',
    },
  },
  {
    fixture: 'vite8-syntax-error.log',
    files: ['src/main.ts'],
    expected: { firstLine: '[builtin:vite-transform] Unexpected token', location: at('src/main.ts', 1, 12) },
  },
  {
    fixture: 'vite7-unresolved-import.log',
    files: ['src/main.ts'],
    expected: { firstLine: '[vite]: Rollup failed to resolve import "left-pad-missing" from "src/main.ts".' },
  },
  {
    fixture: 'vite7-esbuild-transform.log',
    files: ['src/main.ts'],
    expected: { firstLine: 'Expected identifier but found ";"', location: at('src/main.ts', 1, 12) },
  },
  {
    fixture: 'tsc.log',
    files: ['src/a.ts'],
    expected: {
      firstLine: "error TS2307: Cannot find module 'not-there' or its corresponding type declarations.",
      location: at('src/a.ts', 1, 15),
    },
  },
  {
    fixture: 'tsc-pretty.log',
    files: ['src/a.ts'],
    expected: {
      firstLine: "error TS2307: Cannot find module 'not-there' or its corresponding type declarations.",
      location: at('src/a.ts', 1, 15),
    },
  },
  {
    fixture: 'pnpm-run-tsc.log',
    files: ['src/b.ts'],
    expected: { firstLine: 'error TS1136: Property assignment expected.', location: at('src/b.ts', 1, 12) },
  },
  {
    // esbuild's columns start at 0; Forge's at 1 (tsc says 15 for the same place).
    fixture: 'esbuild-unresolved.log',
    files: ['src/a.ts'],
    expected: { firstLine: 'Could not resolve "not-there"', location: at('src/a.ts', 1, 15) },
  },
  {
    fixture: 'webpack-module-not-found.log',
    files: ['src/index.js'],
    expected: {
      firstLine: "Module not found: Error: Can't resolve './missing' in 'src'",
      location: at('src/index.js', 1, 1),
    },
  },
  {
    fixture: 'webpack-parse-failed.log',
    files: ['src/index.js'],
    expected: {
      firstLine: 'Module parse failed: Unexpected token (1:11)',
      location: at('src/index.js', 1, 12),
    },
  },
  {
    fixture: 'sveltekit-compile-error.log',
    files: ['src/routes/+page.svelte'],
    expected: {
      firstLine:
        '[vite-plugin-svelte:compile] src/routes/+page.svelte (5:40): src/routes/+page.svelte:5:40 Unterminated regular expression',
      location: at('src/routes/+page.svelte', 5, 40),
    },
  },
  {
    // The template is reported at line 0 (unknown): the component's templateUrl is the place.
    fixture: 'angular-esbuild-ng8001.log',
    files: ['src/app/app.component.html', 'src/app/app.component.ts'],
    expected: {
      firstLine: "NG8001: 'app-missing-widget' is not a known element:",
      location: at('src/app/app.component.ts', 7, 16),
    },
  },
  {
    fixture: 'angular-esbuild-ts.log',
    files: ['src/app/app.component.ts'],
    expected: {
      firstLine: "TS2322: Type 'string' is not assignable to type 'number'.",
      location: at('src/app/app.component.ts', 11, 3),
    },
  },
  {
    fixture: 'angular-webpack-ng8001.log',
    files: ['src/app/app.component.html'],
    expected: {
      firstLine: "error NG8001: 'app-missing-widget' is not a known element:",
      location: at('src/app/app.component.html', 1, 1),
    },
  },
  {
    fixture: 'node-cannot-find-module.log',
    files: ['server.js'],
    expected: { firstLine: "Error: Cannot find module 'express'", location: at('server.js', 1, 17) },
  },
  {
    fixture: 'node-esm-type-error.log',
    files: ['lib.mjs', 'server.mjs'],
    expected: {
      firstLine: "TypeError: Cannot read properties of undefined (reading 'port')",
      location: at('lib.mjs', 1, 64),
    },
  },
  {
    fixture: 'node-esm-missing-package.log',
    files: ['m2.mjs'],
    expected: {
      firstLine: "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'left-pad-x' imported from m2.mjs",
    },
  },
  {
    fixture: 'python-traceback.log',
    files: ['app.py'],
    expected: {
      firstLine: "ModuleNotFoundError: No module named 'flask_missing'",
      location: at('app.py', 2),
    },
  },
  { fixture: 'npm-eresolve.log', expected: { firstLine: 'ERESOLVE unable to resolve dependency tree' } },
  {
    fixture: 'npm-e404.log',
    expected: { firstLine: '404 Not Found - GET https://registry.npmjs.org/forge-no-such-pkg-zz9' },
  },
  { fixture: 'npm-postinstall.log', expected: { firstLine: 'gyp ERR! build error' } },
  {
    fixture: 'pnpm-fetch-404.log',
    expected: {
      firstLine: 'ERR_PNPM_FETCH_404 GET https://registry.npmjs.org/forge-no-such-pkg-zz9: Not Found - 404',
    },
  },
  {
    fixture: 'yarn1-no-matching-version.log',
    expected: { firstLine: 'Couldn\'t find any versions for "left-pad" that matches "^99.0.0"' },
  },
];

describe('findFirstError', () => {
  it.each(CASES)('$fixture', async ({ fixture, files: names = [], expected }) => {
    await files(...names);
    expect(findFirstError(await output(fixture), { projectDir: dir })).toEqual(expected);
  });

  it('makes places relative to the project when the command ran in an app folder of it', async () => {
    await files('apps/web/src/a.ts');
    const found = findFirstError(await output('tsc.log'), {
      projectDir: dir,
      cwd: path.join(dir, 'apps/web'),
    });
    expect(found?.location).toEqual(at('apps/web/src/a.ts', 1, 15));
  });

  it('gives no place for a file outside the project, or one that does not exist', async () => {
    await files('src/a.ts');
    const outside = findFirstError(
      ['Error: boom', '    at run (/usr/lib/node_modules/tool/cli.js:3:9)', '    at /etc/tool.js:1:1'],
      { projectDir: dir },
    );
    expect(outside).toEqual({ firstLine: 'Error: boom' });
    const missing = findFirstError(['src/gone.ts(3,7): error TS2304: Cannot find name "x".'], {
      projectDir: dir,
    });
    expect(missing).toEqual({ firstLine: 'error TS2304: Cannot find name "x".' });
    // A host and port reads like file:line; it is not one.
    expect(findFirstError(['error: connect to fonts.example.com:443 refused'], { projectDir: dir })).toEqual({
      firstLine: 'error: connect to fonts.example.com:443 refused',
    });
  });

  it('prefers a stack frame of the project to one in its node_modules', async () => {
    await files('node_modules/lib/index.js', 'server.js');
    const found = findFirstError(
      [
        'TypeError: x is not a function',
        `    at call (${dir}/node_modules/lib/index.js:10:3)`,
        `    at main (${dir}/server.js:4:1)`,
      ],
      { projectDir: dir },
    );
    expect(found).toEqual({ firstLine: 'TypeError: x is not a function', location: at('server.js', 4, 1) });
  });

  it("reads pip's failed package build as the build backend's exception, not pip's wrapper", () => {
    const found = findFirstError(
      [
        '  Building wheel for hello (pyproject.toml): started',
        "  Building wheel for hello (pyproject.toml): finished with status 'error'",
        '  error: subprocess-exited-with-error',
        '  ',
        '  × Building wheel for hello (pyproject.toml) did not run successfully.',
        '  │ exit code: 1',
        '  ╰─> [4 lines of output]',
        '      Traceback (most recent call last):',
        '        File "/tmp/pip-build-env-x/overlay/lib/python3.11/site-packages/setuptools/dist.py", line 987, in run_command',
        "      AttributeError: install_layout. Did you mean: 'install_platlib'?",
        '      [end of output]',
        '  ERROR: Failed building wheel for hello',
        'ERROR: Could not build wheels for hello, which is required to install pyproject.toml-based projects',
      ],
      { projectDir: dir },
    );
    expect(found).toEqual({ firstLine: "AttributeError: install_layout. Did you mean: 'install_platlib'?" });
  });

  it('says nothing when no line states an error', () => {
    expect(findFirstError(['> build', 'compiling…', 'done with 0 errors'], { projectDir: dir })).toBeNull();
    expect(
      findFirstError(['npm error code 1', `npm error path ${dir}`, 'npm error command failed'], {
        projectDir: dir,
      }),
    ).toBeNull();
  });
});

describe('OutputEvidence', () => {
  it('keeps the first error of a long output and only its last lines, cleaned', async () => {
    await files('src/a.ts');
    const evidence = new OutputEvidence({ projectDir: dir });
    evidence.onLine({
      text: `\u001b[96m${dir}/src/a.ts\u001b[0m(3,7): error TS2322: Type 'string' is not assignable.`,
    });
    for (let i = 0; i < 50_000; i += 1) evidence.onLine({ text: `progress ${i}` });
    evidence.onLine({ text: '' });
    evidence.onLine({ text: '' });
    evidence.onLine({ text: `\u001b[31mFailed in ${dir}/src\u001b[39m` });
    evidence.onLine({ text: '' });

    const { firstLine, location, tail } = evidence.evidence();
    expect(firstLine).toBe("error TS2322: Type 'string' is not assignable.");
    expect(location).toEqual(at('src/a.ts', 3, 7));
    expect(tail).toHaveLength(ERROR_TAIL_LINES);
    // Blank runs kept as one line, no blank line at the end, colour codes and the project path gone.
    expect(tail.slice(-3)).toEqual(['progress 49999', '', 'Failed in src']);
    expect(tail[0]).toBe('progress 49982');
  });

  it('gives the tail alone when no line states an error', () => {
    const evidence = new OutputEvidence({ projectDir: dir }, 3);
    for (const text of ['one', 'two', 'three', 'four']) evidence.onLine({ text });
    expect(evidence.evidence()).toEqual({ tail: ['two', 'three', 'four'] });
  });
});
