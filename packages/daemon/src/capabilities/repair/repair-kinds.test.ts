import { readFile, rm, utimes } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Diagnosis, type Blueprint, type ErrorCode, type StepName } from '@forge/shared';
import {
  esmInCommonJs,
  esmMissingExtension,
  invalidPackageJson,
  missingExport,
  missingNodeTypes,
  nodeVersionNeeded,
  outputElsewhere,
  type BrokenProject,
} from '@forge/testing';
import { diagnose } from '../diagnose/index.ts';
import { PROJECT_PLACEHOLDER } from '../diagnose/fixtures/cases.ts';
import { planRepair } from './index.ts';
import { blueprint, runForReal, useTempDirs, writeTree } from '../../../test/support/repair-projects.ts';

/**
 * The repair kinds added to the broken-project catalogue, read from the catalogue's own files and
 * from what the real tools printed for them (diagnose/fixtures, Node 20.20.2, Vite 8, tsc 6): the
 * diagnosis names the place, and the repair changes only what it must — or declines with why.
 */
const FIXTURES = path.join(import.meta.dirname, '..', 'diagnose', 'fixtures');
const tempDir = useTempDirs();

async function project(kind: BrokenProject): Promise<string> {
  const dir = await tempDir();
  await writeTree(dir, kind.files);
  return dir;
}

async function output(name: string, dir: string): Promise<string[]> {
  const text = await readFile(path.join(FIXTURES, `${name}.txt`), 'utf8');
  return text.split(PROJECT_PLACEHOLDER).join(dir).replace(/\n$/, '').split('\n');
}

async function diagnosed(
  dir: string,
  lines: string[],
  over: { step?: StepName; code?: ErrorCode; blueprint?: Blueprint; stepStartedAt?: number } = {},
): Promise<Diagnosis> {
  const d = await diagnose({
    step: over.step ?? 'build',
    status: 'failed',
    error: { code: over.code ?? 'BUILD_FAILED', message: 'npm run build exited with code 1' },
    lines,
    blueprint: over.blueprint ?? blueprint(),
    projectDir: dir,
    stepStartedAt: over.stepStartedAt ?? null,
  });
  expect(Diagnosis.parse(d)).toEqual(d);
  return d;
}

const target = (dir: string, bp: Blueprint = blueprint()) => ({
  projectDir: dir,
  blueprint: bp,
  run: runForReal,
});

describe('an ES module import without its extension (ERR_MODULE_NOT_FOUND)', () => {
  it('is found again in the importer, and completed with the one file it can mean', async () => {
    const dir = await project(esmMissingExtension());
    const d = await diagnosed(dir, await output('node-esm-no-extension', dir));
    expect(d).toMatchObject({
      code: 'MISSING_FILE',
      file: 'scripts/build.js',
      line: 2,
      subjects: ['./lib/page', './lib/page.js'],
      repair: 'ADD_IMPORT_EXTENSION',
    });
    const planned = await planRepair(d, target(dir));
    expect(planned.plan).toMatchObject({ code: 'ADD_IMPORT_EXTENSION', files: ['scripts/build.js'] });
    expect(planned.plan!.writes).toEqual([
      {
        file: 'scripts/build.js',
        content: esmMissingExtension()
          .files['scripts/build.js']!.toString()
          .replace("'./lib/page'", "'./lib/page.js'"),
      },
    ]);
  });

  it('is not completed when two files could be meant', async () => {
    const dir = await project(esmMissingExtension());
    await writeTree(dir, { 'scripts/lib/page.mjs': 'export const page = () => ""\n' });
    const d = await diagnosed(dir, await output('node-esm-no-extension', dir));
    expect(d).toMatchObject({ code: 'MISSING_FILE', file: 'scripts/build.js', line: 2 });
    expect(d.repair).toBeUndefined();
    expect(d.summary).toMatch(/could be \.\/lib\/page\.js or \.\/lib\/page\.mjs/);
  });

  it('leaves an import in another case to the import rules', async () => {
    const dir = await project(esmMissingExtension());
    await writeTree(dir, { 'scripts/Lib/page.js': 'export const page = () => ""\n' });
    await rm(path.join(dir, 'scripts/lib'), { recursive: true });
    const d = await diagnosed(dir, await output('node-esm-no-extension', dir));
    expect(d.repair).not.toBe('ADD_IMPORT_EXTENSION');
  });
});

describe('an ES module run as CommonJS ("type": "commonjs")', () => {
  it('is renamed to .mjs with the script that runs it, the type field untouched', async () => {
    const dir = await project(esmInCommonJs());
    const d = await diagnosed(dir, await output('node-import-in-commonjs', dir));
    expect(d).toMatchObject({
      code: 'MODULE_FORMAT_MISMATCH',
      file: 'build.js',
      line: 1,
      subjects: ['build.js', 'package.json'],
      repair: 'USE_ESM_EXTENSION',
    });
    expect(d.summary).toMatch(/package\.json says "type": "commonjs"/);
    const { plan } = await planRepair(d, target(dir));
    expect(plan?.files.sort()).toEqual(['build.js', 'build.mjs', 'package.json']);
    const pkg = plan!.writes.find((w) => w.file === 'package.json')!.content as string;
    expect(JSON.parse(pkg)).toMatchObject({ type: 'commonjs', scripts: { build: 'node build.mjs' } });
  });

  it('is not renamed when the file uses require too', async () => {
    const kind = esmInCommonJs();
    const dir = await project(kind);
    await writeTree(dir, {
      'build.js': `${String(kind.files['build.js'])}const path = require('node:path')\n`,
    });
    const d = await diagnosed(dir, await output('node-import-in-commonjs', dir));
    expect(d).toMatchObject({ code: 'MODULE_FORMAT_MISMATCH', file: 'build.js', line: 1 });
    expect(d.repair).toBeUndefined();
  });
});

describe('an import of a name the module does not export (Rolldown MISSING_EXPORT)', () => {
  it('is explained at the import, never repaired', async () => {
    const dir = await project(missingExport());
    const d = await diagnosed(dir, await output('rolldown-missing-export', dir), {
      blueprint: blueprint(),
    });
    expect(d).toMatchObject({
      code: 'MISSING_EXPORT',
      file: 'src/main.js',
      line: 2,
      column: 10,
      subjects: ['formatPrice', 'src/format.js'],
    });
    expect(d.repair).toBeUndefined();
  });
});

describe('type definitions tsc cannot find', () => {
  it('names the @types package the tsconfig asks for, at its "types" entry', async () => {
    const dir = await project(missingNodeTypes());
    const d = await diagnosed(dir, await output('tsc-missing-node-types', dir));
    expect(d).toMatchObject({
      code: 'MISSING_PACKAGE',
      file: 'tsconfig.json',
      line: 12,
      subjects: ['@types/node'],
      repair: 'ADD_MISSING_PACKAGES',
    });
  });
});

describe('a Node version a dependency needs (PIN_NODE_VERSION)', () => {
  const diagnosis: Diagnosis = {
    code: 'NODE_VERSION_MISMATCH',
    summary: 'commander@15.1.0 needs Node >=22.12.0',
    file: 'package.json',
    subjects: ['commander', '>=22.12.0'],
    repair: 'PIN_NODE_VERSION',
  };

  it("declares the dependency's range as engines.node in package.json, nothing else", async () => {
    const dir = await project(nodeVersionNeeded());
    const { plan } = await planRepair(diagnosis, target(dir));
    expect(plan).toMatchObject({ code: 'PIN_NODE_VERSION', files: ['package.json'] });
    const before = JSON.parse(String(nodeVersionNeeded().files['package.json'])) as object;
    expect(JSON.parse(plan!.writes[0]!.content as string)).toEqual({
      ...before,
      engines: { node: '>=22.12.0' },
    });
  });

  it('declines when the plan already reads a Node the project states', async () => {
    const dir = await project(nodeVersionNeeded());
    const bp = blueprint({
      node: {
        wanted: '20',
        file: '.nvmrc',
        current: '20.20.2',
        satisfied: true,
        candidates: [],
        range: null,
        resolved: null,
      },
    });
    const planned = await planRepair(diagnosis, target(dir, bp));
    expect(planned).toEqual({
      plan: null,
      reason: "the project already asks for Node 20 in .nvmrc: which Node it needs is its author's to decide",
    });
  });
});

describe('a site the build wrote where the plan could not read (SET_OUTPUT_DIR)', () => {
  const planned = blueprint({
    decisions: [
      {
        field: 'outputDir',
        value: 'dist',
        file: 'vite.config.js',
        rule: 'build.outDir in vite.config.js is computed',
      },
    ],
  });
  const site = 'dist/apps/nested-output/browser';

  async function built(extra: Record<string, string> = {}): Promise<{ dir: string; since: number }> {
    const dir = await project(outputElsewhere());
    // The sources are older than the build; what the build wrote is newer.
    const old = new Date(Date.now() - 60_000);
    for (const file of Object.keys(outputElsewhere().files)) await utimes(path.join(dir, file), old, old);
    const since = Date.now() - 1000;
    await writeTree(dir, { [`${site}/index.html`]: '<!doctype html><h1>built</h1>', ...extra });
    return { dir, since };
  }

  it('names the one site written, explained with the config that decides it, in forge.config.json', async () => {
    const { dir, since } = await built();
    const d = await diagnosed(dir, [], { code: 'OUTPUT_NO_INDEX', blueprint: planned, stepStartedAt: since });
    expect(d).toMatchObject({
      code: 'OUTPUT_MISSING',
      file: 'vite.config.js',
      subjects: ['dist', site],
      repair: 'SET_OUTPUT_DIR',
    });
    const { plan } = await planRepair(d, target(dir, planned));
    expect(plan).toMatchObject({ code: 'SET_OUTPUT_DIR', files: ['forge.config.json'] });
    expect(JSON.parse(plan!.writes[0]!.content as string)).toEqual({ outputDir: site });
  });

  it('offers nothing when the build wrote two sites', async () => {
    const { dir, since } = await built({ 'dist/apps/admin/browser/index.html': '<!doctype html>' });
    const d = await diagnosed(dir, [], { code: 'OUTPUT_NO_INDEX', blueprint: planned, stepStartedAt: since });
    expect(d.code).toBe('OUTPUT_MISSING');
    expect(d.repair).toBeUndefined();
  });

  it('declines when the forge config is another file', async () => {
    const { dir, since } = await built({ '.forgerc.yaml': 'timeoutMs: 600000\n' });
    const d = await diagnosed(dir, [], { code: 'OUTPUT_NO_INDEX', blueprint: planned, stepStartedAt: since });
    expect(await planRepair(d, target(dir, planned))).toEqual({
      plan: null,
      reason: 'the forge config is .forgerc.yaml: set "outputDir" there',
    });
  });
});

describe('a package.json that is not valid JSON', () => {
  it('is explained at the trailing comma, line and column, and not repaired', async () => {
    const dir = await project(invalidPackageJson());
    const d = await diagnosed(dir, [], { step: 'detect', code: 'BLUEPRINT_INVALID_PACKAGE_JSON' });
    expect(d).toEqual({
      code: 'SYNTAX_ERROR',
      summary:
        'package.json is not valid JSON at 9:30: a comma before the closing } (JSON allows no trailing comma).',
      file: 'package.json',
      line: 9,
      column: 30,
      suggestion:
        'Correct package.json at line 9, column 30, and upload the project again; RepairBot never rewrites a package.json it cannot read.',
    });
  });

  it("says the parser's own words where no comma explains it", async () => {
    const dir = await project(invalidPackageJson());
    await writeTree(dir, { 'package.json': '{\n  "name": "x"\n  "private": true\n}\n' });
    const d = await diagnosed(dir, [], { step: 'detect', code: 'BLUEPRINT_INVALID_PACKAGE_JSON' });
    expect(d).toMatchObject({ code: 'SYNTAX_ERROR', file: 'package.json', line: 3, column: 3 });
    expect(d.summary).toMatch(/Expected ',' or '}' after property value/);
  });
});
