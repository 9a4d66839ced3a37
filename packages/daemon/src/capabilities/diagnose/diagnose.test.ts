import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Diagnosis, type Blueprint, type BuildError, type StepName } from '@forge/shared';
import { makeBlueprint } from '@forge/testing';
import { OutputEvidence } from '../tool-output/first-error.ts';
import { CLOCK_SLACK_MS } from '../checks/written-output.ts';
import { makeTempDir } from '../../../test/support/temp-files.ts';
import { caseNamed, PROJECT_PLACEHOLDER } from './fixtures/cases.ts';
import { diagnose, packageNameOf, type DiagnoseInput } from './index.ts';

/**
 * The fixtures are what the real tools printed on the broken projects of fixtures/cases.ts (npm 11,
 * pnpm 10, Yarn 1.22, Bun 1.4, Vite 8, tsc 6, esbuild 0.28, webpack 5, Rollup 4, Node 20; see
 * fixtures/capture.ts), with the project folder written /PROJECT. Each test writes the case's files
 * into its own folder and puts that folder in the output, so every place and file the diagnosis
 * confirms is really there. The first-error fixtures (Vite 7, Next 14-16, SvelteKit) are reused too.
 */
const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const FIRST_ERROR_FIXTURES = path.join(import.meta.dirname, '../tool-output/fixtures/first-error');
const FIRST_ERROR_DIR = '/home/ana/.forge/projects/shop';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-diagnose-'));
});
afterEach(() => cleanup());

async function write(files: Record<string, string>, under = '.'): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, under, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
}

/** A captured output as the command would have printed it in this test's project. */
async function output(fixture: string, under = '.'): Promise<string[]> {
  const text = await readFile(path.join(FIXTURES, `${fixture}.txt`), 'utf8');
  return text.split(PROJECT_PLACEHOLDER).join(path.join(dir, under)).replace(/\n$/, '').split('\n');
}

async function firstErrorOutput(fixture: string): Promise<string[]> {
  const text = await readFile(path.join(FIRST_ERROR_FIXTURES, fixture), 'utf8');
  return text.split(FIRST_ERROR_DIR).join(dir).split('\n');
}

const plan = makeBlueprint;

interface Run {
  lines: string[];
  step?: StepName | null;
  status?: DiagnoseInput['status'];
  error?: Partial<BuildError>;
  blueprint?: Blueprint | null;
  stepStartedAt?: number | null;
}

/**
 * Diagnose as the pipeline would: the build error carries the first error line and place that
 * OutputEvidence (the runner's own) finds in the same lines.
 */
async function run({
  lines,
  step = 'build',
  status = 'failed',
  error = {},
  blueprint = plan(),
  stepStartedAt = null,
}: Run) {
  const cwd = path.join(
    dir,
    step === 'install' ? (blueprint?.installDir ?? '.') : (blueprint?.appDir ?? '.'),
  );
  const evidence = new OutputEvidence({ projectDir: dir, cwd });
  for (const text of lines) evidence.onLine({ text });
  const code = step === 'install' ? 'INSTALL_FAILED' : step === 'preview' ? 'PREVIEW_FAILED' : 'BUILD_FAILED';
  const diagnosis = await diagnose({
    step,
    status,
    error: { code, message: 'npm run build exited with code 1', ...evidence.evidence(), ...error },
    lines,
    blueprint,
    projectDir: dir,
    stepStartedAt,
  });
  // Whatever it says is a valid Diagnosis, with a suggestion.
  expect(Diagnosis.parse(diagnosis)).toEqual(diagnosis);
  expect(diagnosis.suggestion).toBeTruthy();
  return diagnosis;
}

/** Writes a capture case's project and diagnoses its captured output. */
async function diagnoseCase(
  name: string,
  extra: Omit<Run, 'lines'> & { files?: Record<string, string> } = {},
) {
  await write({ ...caseNamed(name).files, ...extra.files });
  return run({ ...extra, lines: await output(name) });
}

describe('MISSING_PACKAGE', () => {
  it('names an undeclared package Vite (Rolldown) could not resolve, and its importer', async () => {
    const d = await diagnoseCase('vite-missing-package');
    expect(d).toMatchObject({
      code: 'MISSING_PACKAGE',
      file: 'src/main.js',
      subjects: ['canvas-confetti'],
      repair: 'ADD_MISSING_PACKAGES',
    });
    expect(d.summary).toBe('"canvas-confetti" is imported by src/main.js but not declared in package.json.');
    expect(d.suggestion).toMatch(/forge fix/);
  });

  it('reduces a scoped subpath import to its package', async () => {
    const d = await diagnoseCase('vite-missing-scoped-subpath');
    expect(d).toMatchObject({ code: 'MISSING_PACKAGE', file: 'src/main.js', subjects: ['@acme/date-utils'] });
  });

  it('finds a missing Vite plugin imported by vite.config.js, at its line', async () => {
    const d = await diagnoseCase('vite-missing-plugin');
    expect(d).toMatchObject({
      code: 'MISSING_PACKAGE',
      file: 'vite.config.js',
      line: 2,
      column: 19,
      subjects: ['@vitejs/plugin-react'],
      repair: 'ADD_MISSING_PACKAGES',
    });
  });

  it('reads Vite 7 (Rollup) output', async () => {
    await write({ 'src/main.ts': "import pad from 'left-pad-missing';\n", 'package.json': '{}' });
    const d = await run({ lines: await firstErrorOutput('vite7-unresolved-import.log') });
    expect(d).toMatchObject({ code: 'MISSING_PACKAGE', file: 'src/main.ts', subjects: ['left-pad-missing'] });
  });

  it('lists every package tsc cannot find, and never a builtin', async () => {
    const d = await diagnoseCase('tsc-missing-packages');
    expect(d).toMatchObject({
      code: 'MISSING_PACKAGE',
      file: 'src/index.ts',
      line: 1,
      column: 26,
      subjects: ['lodash-es', 'zod'],
      repair: 'ADD_MISSING_PACKAGES',
    });
    expect(d.summary).toBe(
      '"lodash-es" and "zod" are imported by src/index.ts but not declared in package.json.',
    );
  });

  it('reads esbuild, leaving out the node: builtin it also could not bundle', async () => {
    const d = await diagnoseCase('esbuild-missing-package');
    expect(d).toMatchObject({
      code: 'MISSING_PACKAGE',
      file: 'src/main.js',
      line: 1,
      column: 19,
      subjects: ['dayjs'],
    });
  });

  it('reads webpack', async () => {
    const d = await diagnoseCase('webpack-missing-package');
    expect(d).toMatchObject({
      code: 'MISSING_PACKAGE',
      file: 'src/index.js',
      line: 1,
      column: 1,
      subjects: ['axios'],
    });
  });

  it('reads Node ESM and CommonJS', async () => {
    const esm = await diagnoseCase('node-esm-missing-package', { step: 'preview' });
    expect(esm).toMatchObject({ code: 'MISSING_PACKAGE', file: 'server.js', subjects: ['express'] });
    const cjs = await diagnoseCase('node-cjs-missing-module', { step: 'preview' });
    expect(cjs).toMatchObject({ code: 'MISSING_PACKAGE', file: 'server.js', subjects: ['pg'] });
  });

  it('names the package of a command the script runs that is not installed', async () => {
    const d = await diagnoseCase('bin-not-found');
    expect(d).toMatchObject({
      code: 'MISSING_PACKAGE',
      file: 'package.json',
      subjects: ['vite'],
      repair: 'ADD_MISSING_PACKAGES',
    });
    expect(d.summary).toContain('"build" script runs vite');
  });

  it('proposes no repair for a package that is declared but not installed: reinstall', async () => {
    const files = {
      'package.json': JSON.stringify({
        devDependencies: { vite: '^8.3.8' },
        dependencies: { 'canvas-confetti': '^1.9.3' },
      }),
    };
    const d = await diagnoseCase('vite-missing-package', { files });
    expect(d.code).toBe('MISSING_PACKAGE');
    expect(d.subjects).toEqual(['canvas-confetti']);
    expect(d.repair).toBeUndefined();
    expect(d.summary).toMatch(/declared in package\.json but not installed/);
    expect(d.suggestion).toMatch(/Install the dependencies again/);

    const bin = await diagnoseCase('bin-not-found', {
      files: {
        'package.json': JSON.stringify({ scripts: { build: 'vite build' }, devDependencies: { vite: '^8' } }),
      },
    });
    expect(bin).toMatchObject({ code: 'MISSING_PACKAGE', subjects: ['vite'] });
    expect(bin.repair).toBeUndefined();
  });

  it('is not a missing package when it is installed (a subpath it does not export, say)', async () => {
    await write({ 'node_modules/canvas-confetti/package.json': '{"name":"canvas-confetti"}' });
    const d = await diagnoseCase('vite-missing-package');
    expect(d.code).toBe('UNKNOWN');
    expect(d.summary).toContain('Rolldown failed to resolve import "canvas-confetti"');
  });

  it('counts a package declared by the workspace root, and places files inside the app folder', async () => {
    const files = caseNamed('tsc-missing-packages').files;
    await write(files, 'apps/web');
    await write({ 'package.json': JSON.stringify({ private: true, devDependencies: { zod: '^4' } }) });
    const d = await run({
      lines: await output('tsc-missing-packages', 'apps/web'),
      blueprint: plan({ appDir: 'apps/web', installDir: '.' }),
    });
    expect(d).toMatchObject({
      code: 'MISSING_PACKAGE',
      file: 'apps/web/src/index.ts',
      line: 1,
      subjects: ['lodash-es'],
    });
    expect(d.summary).toContain('apps/web/package.json');
  });
});

describe('IMPORT_CASE_MISMATCH and MISSING_FILE', () => {
  it('finds the one file an import matches ignoring case (Vite)', async () => {
    const d = await diagnoseCase('vite-case-mismatch');
    expect(d).toMatchObject({
      code: 'IMPORT_CASE_MISMATCH',
      file: 'src/main.js',
      line: 1,
      column: 24,
      subjects: ['./components/Header', './components/header'],
      repair: 'FIX_IMPORT_CASE',
    });
    expect(d.summary).toContain('src/components/header.js');
  });

  it('finds it from webpack output, which names only the folder', async () => {
    const d = await diagnoseCase('webpack-case-mismatch');
    expect(d).toMatchObject({
      code: 'IMPORT_CASE_MISMATCH',
      file: 'src/index.js',
      line: 1,
      subjects: ['./Cart', './cart'],
      repair: 'FIX_IMPORT_CASE',
    });
  });

  it('matches folders, index files and extensions ignoring case', async () => {
    await write({
      'src/main.js': "import { Header } from '../src/Components/Header';\n",
      'src/components/header/index.tsx': 'export const Header = 1;\n',
    });
    const d = await run({
      lines: [
        'error during build:',
        `[vite]: Rollup failed to resolve import "../src/Components/Header" from "${dir}/src/main.js".`,
      ],
    });
    expect(d).toMatchObject({
      code: 'IMPORT_CASE_MISMATCH',
      subjects: ['../src/Components/Header', '../src/components/header'],
    });
  });

  it('says which import is missing and who imports it', async () => {
    const d = await diagnoseCase('vite-missing-file');
    expect(d).toMatchObject({
      code: 'MISSING_FILE',
      file: 'src/main.js',
      line: 1,
      column: 24,
      subjects: ['./components/Footer'],
    });
    expect(d.repair).toBeUndefined();
    expect(d.summary).toBe('src/main.js imports "./components/Footer", which does not exist.');
  });

  it('names a file Node was told to run that is not there', async () => {
    const d = await diagnoseCase('node-missing-entry', { step: 'preview' });
    expect(d).toMatchObject({ code: 'MISSING_FILE', subjects: ['dist/server.js'] });
    expect(d.summary).toBe('dist/server.js does not exist, and the preview command loads it.');
  });

  it('reads Next 16 (Turbopack)', async () => {
    await write({ 'app/page.tsx': "import missing from './missing-module';\n" });
    const d = await run({ lines: await firstErrorOutput('next16-turbopack-module-not-found.log') });
    expect(d).toMatchObject({
      code: 'MISSING_FILE',
      file: 'app/page.tsx',
      line: 1,
      subjects: ['./missing-module'],
    });
  });

  it('is no case mismatch when two files match ignoring case', async () => {
    await write({ ...caseNamed('vite-case-mismatch').files, 'src/components/HEADER.js': '' });
    const d = await run({ lines: await output('vite-case-mismatch') });
    expect(d.code).toBe('MISSING_FILE');
    expect(d.summary).toContain('several files match it ignoring case');
  });
});

describe('SYNTAX_ERROR and TYPE_ERROR', () => {
  it('places a Rolldown parse error', async () => {
    const d = await diagnoseCase('vite-syntax-error');
    expect(d).toMatchObject({ code: 'SYNTAX_ERROR', file: 'src/main.js', line: 1, column: 15 });
    expect(d.summary).toBe('Syntax error in src/main.js:1:15: Unexpected token');
  });

  it('places tsc TS1xxx errors as syntax, the first one', async () => {
    const d = await diagnoseCase('tsc-syntax-error');
    expect(d).toMatchObject({ code: 'SYNTAX_ERROR', file: 'src/index.ts', line: 1, column: 33 });
    expect(d.summary).toContain("',' expected.");
  });

  it('reads esbuild (Vite 7), webpack and Svelte parse errors', async () => {
    await write({ 'src/main.ts': '', 'src/index.js': '', 'src/routes/+page.svelte': '' });
    expect(await run({ lines: await firstErrorOutput('vite7-esbuild-transform.log') })).toMatchObject({
      code: 'SYNTAX_ERROR',
      file: 'src/main.ts',
      line: 1,
      column: 12,
    });
    expect(await run({ lines: await firstErrorOutput('webpack-parse-failed.log') })).toMatchObject({
      code: 'SYNTAX_ERROR',
      file: 'src/index.js',
      line: 1,
      column: 12,
    });
    expect(await run({ lines: await firstErrorOutput('sveltekit-compile-error.log') })).toMatchObject({
      code: 'SYNTAX_ERROR',
      file: 'src/routes/+page.svelte',
      line: 5,
      column: 40,
    });
  });

  it('places Rollup and Babel parse errors named in their own message', async () => {
    const rollup = await diagnoseCase('rollup-syntax-error');
    expect(rollup.summary).toBe(
      'Syntax error in src/main.js:1:22: Unexpected token `;`. Expected identifier, string literal, numeric literal or [ for the computed key',
    );
    // Both count columns from 0: the ";" is the 22nd and the 38th character.
    expect(rollup).toMatchObject({ code: 'SYNTAX_ERROR', file: 'src/main.js', line: 1, column: 22 });
    const babel = await diagnoseCase('babel-syntax-error');
    expect(babel).toMatchObject({ code: 'SYNTAX_ERROR', file: 'src/App.js', line: 2, column: 38 });
    expect(babel.summary).toBe('Syntax error in src/App.js:2:38: Unexpected token, expected ","');
  });

  it('places a tsc type error', async () => {
    const d = await diagnoseCase('tsc-type-error');
    expect(d).toMatchObject({ code: 'TYPE_ERROR', file: 'src/index.ts', line: 1, column: 14 });
    expect(d.summary).toBe(
      "Type error in src/index.ts:1:14: Type 'string' is not assignable to type 'number'. (TS2322)",
    );
  });

  it("reads Next's type check", async () => {
    await write({ 'app/page.tsx': '' });
    const d = await run({ lines: await firstErrorOutput('next15-type-error.log') });
    expect(d).toMatchObject({ code: 'TYPE_ERROR', file: 'app/page.tsx', line: 1, column: 7 });
  });

  it('blames the Node version when Node cannot parse a dependency of a project that asks for a newer one', async () => {
    const node = { wanted: '>=24', file: 'package.json', current: '20.20.2', satisfied: false };
    const d = await diagnoseCase('node-modern-syntax', { blueprint: plan({ node }) });
    expect(d).toMatchObject({ code: 'NODE_VERSION_MISMATCH', file: 'package.json' });
    expect(d.summary).toContain('>=24');
    // The same output without the plan's warning is a syntax error, not a guess about Node.
    const plain = await run({ lines: await output('node-modern-syntax') });
    expect(plain.code).toBe('SYNTAX_ERROR');
  });
});

describe('package manager refusals', () => {
  it('LOCKFILE_OUT_OF_SYNC from npm ci, naming what changed and the lockfile', async () => {
    const d = await diagnoseCase('npm-ci-lockfile-drift', {
      step: 'install',
      files: { 'package-lock.json': '{}' },
    });
    expect(d).toMatchObject({
      code: 'LOCKFILE_OUT_OF_SYNC',
      file: 'package-lock.json',
      subjects: ['is-odd', 'is-number'],
      repair: 'REINSTALL_UNFROZEN',
    });
  });

  it('LOCKFILE_OUT_OF_SYNC from pnpm, Yarn 1 and Bun', async () => {
    const pnpm = await diagnoseCase('pnpm-outdated-lockfile', {
      step: 'install',
      files: { 'pnpm-lock.yaml': '' },
      blueprint: plan({ packageManager: 'pnpm', install: ['pnpm', 'install', '--frozen-lockfile'] }),
    });
    expect(pnpm).toMatchObject({
      code: 'LOCKFILE_OUT_OF_SYNC',
      file: 'pnpm-lock.yaml',
      subjects: ['is-odd'],
    });
    const yarn = await diagnoseCase('yarn1-frozen-lockfile', { step: 'install', files: { 'yarn.lock': '' } });
    expect(yarn).toMatchObject({
      code: 'LOCKFILE_OUT_OF_SYNC',
      file: 'yarn.lock',
      repair: 'REINSTALL_UNFROZEN',
    });
    const bun = await diagnoseCase('bun-frozen-lockfile', { step: 'install', files: { 'bun.lock': '' } });
    expect(bun).toMatchObject({ code: 'LOCKFILE_OUT_OF_SYNC', file: 'bun.lock', subjects: ['is-odd'] });
  });

  it('PEER_DEPENDENCY_CONFLICT from npm ERESOLVE, naming both sides', async () => {
    const d = await diagnoseCase('npm-eresolve-peer', { step: 'install' });
    expect(d).toMatchObject({
      code: 'PEER_DEPENDENCY_CONFLICT',
      subjects: ['react', '@testing-library/react'],
      repair: 'LEGACY_PEER_DEPS',
    });
    expect(d.summary).toBe(
      'npm cannot install @testing-library/react@16.3.3: it needs react@"^18.0.0 || ^19.0.0" as a peer, but the project has react@17.0.2.',
    );
  });

  it('PEER_DEPENDENCY_CONFLICT from pnpm strict peers', async () => {
    const d = await diagnoseCase('pnpm-peer-issues', { step: 'install' });
    expect(d).toMatchObject({
      code: 'PEER_DEPENDENCY_CONFLICT',
      subjects: ['react', '@testing-library/react', 'react-dom'],
      repair: 'LEGACY_PEER_DEPS',
    });
  });

  it("MISSING_SCRIPT, repaired with the framework's build only when Forge knows it", async () => {
    const vite = await diagnoseCase('npm-missing-script');
    expect(vite).toMatchObject({
      code: 'MISSING_SCRIPT',
      file: 'package.json',
      subjects: ['build'],
      repair: 'USE_FRAMEWORK_BUILD',
    });
    expect(vite.suggestion).toContain('vite build');
    const custom = await diagnoseCase('npm-missing-script', { blueprint: plan({ framework: 'custom' }) });
    expect(custom).toMatchObject({ code: 'MISSING_SCRIPT', subjects: ['build'] });
    expect(custom.repair).toBeUndefined();
  });

  it('MISSING_SCRIPT from pnpm and Yarn 1', async () => {
    expect(await diagnoseCase('pnpm-missing-script')).toMatchObject({
      code: 'MISSING_SCRIPT',
      subjects: ['build'],
    });
    expect(await diagnoseCase('yarn1-missing-script')).toMatchObject({
      code: 'MISSING_SCRIPT',
      subjects: ['build'],
    });
  });

  it('NODE_VERSION_MISMATCH from npm EBADENGINE', async () => {
    const d = await diagnoseCase('npm-ebadengine', { step: 'install' });
    expect(d).toMatchObject({
      code: 'NODE_VERSION_MISMATCH',
      subjects: ['commander', '>=22.12.0'],
      repair: 'PIN_NODE_VERSION',
    });
    expect(d.summary).toBe(
      'commander@15.1.0 needs Node >=22.12.0 (its engines.node, as the install printed); package.json states no Node, so Forge ran Node 20.20.2.',
    );
  });

  it('PACKAGE_MANAGER_MISSING when the toolchain could not be provided', async () => {
    const toolchain = {
      tool: 'pnpm' as const,
      package: 'pnpm',
      request: '99',
      version: null,
      source: 'packageManager' as const,
      file: 'package.json',
    };
    const d = await run({
      step: 'toolchain',
      lines: [],
      error: { code: 'TOOLCHAIN_UNAVAILABLE', message: 'pnpm 99 is not in the npm registry.' },
      blueprint: plan({ packageManager: 'pnpm', toolchain }),
    });
    expect(d).toMatchObject({ code: 'PACKAGE_MANAGER_MISSING', file: 'package.json', subjects: ['pnpm'] });
    expect(d.summary).toBe('Forge could not provide pnpm 99: pnpm 99 is not in the npm registry.');
  });

  it('PACKAGE_MANAGER_MISSING for a command no known package provides', async () => {
    await write({ 'package.json': JSON.stringify({ scripts: { build: 'mytool build' } }) });
    const d = await run({ lines: ['', '> build', '> mytool build', '', 'sh: 1: mytool: not found'] });
    expect(d).toMatchObject({ code: 'PACKAGE_MANAGER_MISSING', subjects: ['mytool'] });
  });
});

describe('the machine around the build', () => {
  it('FOREIGN_NODE_MODULES: a native package missing for this platform (npm optional-deps bug)', async () => {
    const d = await diagnoseCase('rollup-native-missing');
    expect(d).toMatchObject({
      code: 'FOREIGN_NODE_MODULES',
      subjects: ['@rollup/rollup-linux-x64-gnu'],
      repair: 'DROP_FOREIGN_NODE_MODULES',
    });
  });

  it('FOREIGN_NODE_MODULES: a macOS binary in node_modules', async () => {
    const d = await diagnoseCase('foreign-native-addon');
    expect(d).toMatchObject({
      code: 'FOREIGN_NODE_MODULES',
      subjects: ['fast-hash'],
      repair: 'DROP_FOREIGN_NODE_MODULES',
    });
    expect(d.summary).toContain('invalid ELF header');
  });

  it('OUT_OF_MEMORY from the heap limit, and from a SIGKILL', async () => {
    expect(await diagnoseCase('node-out-of-memory')).toMatchObject({ code: 'OUT_OF_MEMORY' });
    const killed = await run({
      lines: ['> build', '> vite build', 'transforming...'],
      error: { message: 'npm run build was killed by SIGKILL' },
    });
    expect(killed.code).toBe('OUT_OF_MEMORY');
  });

  it('NETWORK_AT_BUILD names the host and the file that fetched it', async () => {
    const d = await diagnoseCase('node-fetch-font');
    expect(d).toMatchObject({
      code: 'NETWORK_AT_BUILD',
      subjects: ['fonts.googleapis.com'],
      file: 'build.js',
      line: 1,
    });
    expect(d.suggestion).toMatch(/self-host the font/);
  });

  it.each(['next14-google-font.log', 'next15-google-font.log', 'next16-turbopack-google-font.log'])(
    "NETWORK_AT_BUILD from Next's Google font (%s)",
    async (fixture) => {
      await write({ 'app/layout.tsx': '' });
      const d = await run({ lines: await firstErrorOutput(fixture) });
      expect(d).toMatchObject({ code: 'NETWORK_AT_BUILD', subjects: ['fonts.googleapis.com'] });
    },
  );

  it('NETWORK_AT_BUILD names a local service the build expects', async () => {
    const d = await diagnoseCase('node-database-refused');
    expect(d).toMatchObject({ code: 'NETWORK_AT_BUILD', subjects: ['127.0.0.1:5432'] });
    expect(d.suggestion).toMatch(/service the build expects on this machine/);
  });

  it('a package the registry does not have is no network failure', async () => {
    const d = await run({ step: 'install', lines: await firstErrorOutput('pnpm-fetch-404.log') });
    expect(d.code).toBe('PACKAGE_NOT_ON_REGISTRY');
    expect(d.subjects).toEqual(['forge-no-such-pkg-zz9', 'registry.npmjs.org']);
  });

  it('PORT_IN_USE from Node and from vite preview', async () => {
    expect(await diagnoseCase('node-port-in-use', { step: 'preview' })).toMatchObject({
      code: 'PORT_IN_USE',
      subjects: ['3000'],
    });
    expect(await diagnoseCase('vite-preview-port-in-use', { step: 'preview' })).toMatchObject({
      code: 'PORT_IN_USE',
      subjects: ['5173'],
    });
  });

  it('TIMEOUT says the step and that a watch-mode build never ends', async () => {
    const d = await diagnoseCase('vite-build-watch', {
      status: 'timed-out',
      error: { code: 'STAGE_TIMEOUT', message: 'npm run build ran past its time limit and was stopped.' },
    });
    expect(d).toMatchObject({ code: 'TIMEOUT', subjects: ['build'] });
    expect(d.summary).toBe(
      'The build step (npm run build) ran past its time limit (10m00s) and was stopped.',
    );
    expect(d.suggestion).toContain('vite build --watch');
  });

  it('TIMEOUT names a prompt the command waits on', async () => {
    await write({ 'package.json': '{}' });
    const d = await run({
      status: 'timed-out',
      step: 'install',
      lines: ['Need to install the following packages:', 'create-thing@1.0.0', 'Ok to proceed? (y)'],
      error: { code: 'STAGE_TIMEOUT', message: 'npm ci ran past its time limit and was stopped.' },
    });
    expect(d).toMatchObject({ code: 'TIMEOUT', subjects: ['install'] });
    expect(d.suggestion).toContain('Ok to proceed? (y)');
  });

  it('OUTPUT_MISSING names the folder, and only folders this build wrote', async () => {
    // A folder the upload brought along is never offered as the output.
    await write({ 'package.json': '{}', 'public/favicon.svg': '<svg/>' });
    // The build starts once the clock has moved past the upload's file times (and their slack).
    const uploaded = (await stat(path.join(dir, 'public/favicon.svg'))).ctimeMs;
    while (Date.now() <= uploaded + CLOCK_SLACK_MS) await new Promise((resolve) => setImmediate(resolve));
    const started = Date.now();
    await write({ 'build/app.js': 'console.log(1)' });
    const d = await run({
      lines: ['> build', '> react-scripts build', 'Compiled successfully.'],
      error: {
        code: 'OUTPUT_MISSING',
        message: 'The build finished but its output folder "dist" was not created.',
      },
      stepStartedAt: started,
    });
    expect(d).toMatchObject({ code: 'OUTPUT_MISSING', subjects: ['dist', 'build'] });
    expect(d.summary).toBe('npm run build finished but its output folder "dist" is missing.');
    expect(d.suggestion).toContain('It wrote files to "build", but no index.html there.');
    expect(d.suggestion).not.toContain('public');

    await mkdir(path.join(dir, 'dist'));
    const empty = await run({
      lines: [],
      error: { code: 'OUTPUT_MISSING', message: 'empty' },
      stepStartedAt: Date.now() + 60_000,
    });
    expect(empty.summary).toContain('is empty');
    expect(empty.suggestion).toContain('It wrote no index.html anywhere in the project.');
    expect(empty.suggestion).not.toMatch(/"build"|"public"/);
  });

  it('OUTPUT_NO_INDEX: the folder was written, but without the page that / serves', async () => {
    await write({ 'package.json': '{}', 'dist/about.html': '<p>about</p>' });
    const d = await run({
      lines: [],
      error: { code: 'OUTPUT_NO_INDEX', message: 'The build wrote "dist" but no index.html at its root.' },
    });
    expect(d).toMatchObject({ code: 'OUTPUT_MISSING', subjects: ['dist'] });
    expect(d.summary).toContain('no index.html at its root');
    expect(d.suggestion).toContain('"dist/index.html"');
  });
});

describe('precedence', () => {
  it('a missing package wins over the type errors printed after it', async () => {
    await write({ ...caseNamed('tsc-missing-packages').files });
    const lines = [...(await output('tsc-type-error')), ...(await output('tsc-missing-packages'))];
    expect((await run({ lines })).code).toBe('MISSING_PACKAGE');
  });

  it('a syntax error wins over type errors', async () => {
    await write({ ...caseNamed('tsc-type-error').files });
    const lines = [...(await output('tsc-type-error')), ...(await output('tsc-syntax-error'))];
    expect((await run({ lines })).code).toBe('SYNTAX_ERROR');
  });

  it('native code for another platform wins over the missing module it reports', async () => {
    const d = await diagnoseCase('rollup-native-missing');
    expect(d.code).toBe('FOREIGN_NODE_MODULES');
  });

  it('a timeout wins over the errors printed before it', async () => {
    const d = await diagnoseCase('vite-missing-package', {
      status: 'timed-out',
      error: { code: 'STAGE_TIMEOUT' },
    });
    expect(d.code).toBe('TIMEOUT');
  });

  it("npm's engine warning explains a failure nothing else explains, and only then", async () => {
    await write({ ...caseNamed('npm-warn-ebadengine').files });
    const warned = await output('npm-warn-ebadengine');
    const alone = await run({ step: 'install', lines: [...warned, 'Segmentation fault (core dumped)'] });
    expect(alone).toMatchObject({ code: 'NODE_VERSION_MISMATCH', subjects: ['commander'] });
    expect(alone.summary).toBe('commander@15.1.0 needs Node >=22.12.0; Forge runs Node 20.20.2.');
    await write({ ...caseNamed('vite-missing-package').files });
    const explained = await run({ lines: [...warned, ...(await output('vite-missing-package'))] });
    expect(explained.code).toBe('MISSING_PACKAGE');
  });

  it("the plan's Node warning explains a failure nothing else explains", async () => {
    await write({ 'package.json': '{}' });
    const probableCause =
      'This was probably caused by the Node version: the project asks for Node >=22 (package.json) and this machine runs Node 20.20.2.';
    const d = await run({ lines: ['> build', 'Error: something odd'], error: { probableCause } });
    expect(d).toMatchObject({ code: 'NODE_VERSION_MISMATCH', summary: probableCause });
  });
});

describe('UNKNOWN', () => {
  it('gives the first error line with its place, and where to read the log', async () => {
    await write({ 'lib.mjs': '', 'server.mjs': '' });
    const d = await run({ step: 'preview', lines: await firstErrorOutput('node-esm-type-error.log') });
    expect(d).toMatchObject({ code: 'UNKNOWN', file: 'lib.mjs', line: 1, column: 64 });
    expect(d.summary).toBe("TypeError: Cannot read properties of undefined (reading 'port') (lib.mjs:1:64)");
    expect(d.suggestion).toContain('forge logs');
  });

  it("falls back to the build's message when nothing in the output states an error", async () => {
    await write({ 'package.json': '{}' });
    const d = await run({ lines: ['> build', 'done'] });
    expect(d).toEqual({
      code: 'UNKNOWN',
      summary: 'npm run build exited with code 1',
      suggestion: expect.stringContaining('forge logs'),
    });
  });
});

describe('bounded work', () => {
  it('reads only the last lines, and never a regex over a huge line', async () => {
    await write(caseNamed('vite-missing-package').files);
    const huge = `${'x'.repeat(150_000)} Rollup failed to resolve import "left-pad" from "src/main.js"`;
    const lines = [
      huge,
      ...Array.from({ length: 20_000 }, (_, i) => `line ${i}`),
      ...(await output('vite-missing-package')),
    ];
    const started = performance.now();
    const d = await run({ lines, error: { firstLine: undefined, location: undefined } });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(d.subjects).toEqual(['canvas-confetti']);
  });

  it('strips colour codes before reading', async () => {
    await write({ 'package.json': '{}' });
    const d = await run({
      lines: ['\u001b[31mnpm error\u001b[39m Missing script: "build"'],
      blueprint: plan({ framework: 'custom' }),
    });
    expect(d).toMatchObject({ code: 'MISSING_SCRIPT', subjects: ['build'] });
  });
});

describe('packageNameOf', () => {
  it.each([
    ['canvas-confetti', 'canvas-confetti'],
    ['lodash/debounce', 'lodash'],
    ['@scope/name', '@scope/name'],
    ['@scope/name/sub/path', '@scope/name'],
    ['JSONStream', 'JSONStream'],
  ])('%s → %s', (specifier, name) => {
    expect(packageNameOf(specifier)).toBe(name);
  });

  it.each([
    'node:fs',
    'fs',
    'fs/promises',
    'path',
    'node:test',
    './a',
    '../b',
    '/abs',
    '#internal',
    '@/components/x',
    '~/lib',
    'virtual:pwa',
    'https://x.test/a.js',
    '@scope',
    '',
  ])('%s → null', (specifier) => {
    expect(packageNameOf(specifier)).toBeNull();
  });
});
