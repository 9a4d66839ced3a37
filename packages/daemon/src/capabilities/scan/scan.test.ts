import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { Build, ScanReport, type Blueprint, type ScanIssue } from '@forge/shared';
import { formatScanReport, scanProject } from './index.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A project folder with these files (string content, or a size in bytes for a filler file). */
function project(files: Record<string, string | number>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-scan-'));
  dirs.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (typeof content === 'number') fs.writeFileSync(file, Buffer.alloc(content, 'a'));
    else fs.writeFileSync(file, content);
  }
  return dir;
}

const pkg = (fields: Record<string, unknown>): string => JSON.stringify({ name: 'app', ...fields }, null, 2);
const scan = (dir: string, opts: Partial<Parameters<typeof scanProject>[1]> = {}) =>
  scanProject(dir, { blueprint: null, typeCheck: false, ...opts });
const ofKind = (issues: ScanIssue[], kind: ScanIssue['kind']) => issues.filter((i) => i.kind === kind);

describe('undeclared imports', () => {
  it('finds bare imports nothing declares, in every syntax, and nothing else', async () => {
    const dir = project({
      'package.json': pkg({
        name: '@acme/app',
        scripts: { build: 'vite build' },
        dependencies: { react: '^19.0.0', vue: '^3.5.0' },
        devDependencies: { vite: '^7.0.0', '@types/express': '^5.0.0' },
      }),
      'index.html': '<!doctype html><div id="root"></div>',
      'tsconfig.json': `{
        // comments and trailing commas are fine here
        "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["src/*"], "#config": ["src/config.ts"], }, },
      }`,
      'vite.config.js': `import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
export default defineConfig({ plugins: [react()], resolve: { alias: { '@lib': '/src/lib', "shared": '/src/shared' } } });`,
      'src/App.jsx': `import React from 'react';
import confetti from "canvas-confetti";
import { helper } from './helper';
import fs from 'node:fs';
import path from 'path';
import { readFile } from 'fs/promises';
import Button from '@/components/Button';
import util from '@lib/util';
import common from 'shared/common';
import self from '@acme/app/package.json';
import ui from '@acme/ui';
// import ghost from 'commented-out';
const text = "import fake from 'in-a-string'";
export default function App() { return <p className="x">It's {1 / 2} here, don't worry</p>; }
export const later = () => import('dayjs');`,
      'src/server.cjs': `const fp = require('lodash/fp');\nconst os = require('os');`,
      'src/types.ts': `import type { Request } from 'express';\nimport type { Foo } from 'not-typed';\nimport x = require('old-style');`,
      'src/virtual.d.ts': `declare module 'virtual:my-plugin' { const x: string; export default x; }\ndeclare module 'my-virtual' {}`,
      'src/uses-virtual.ts': `import v from 'virtual:my-plugin';\nimport w from 'my-virtual';\nimport { z } from 'components/Thing';`,
      'components/Thing.ts': 'export const z = 1;',
      'src/Widget.vue': `<template><p>{{ msg }}</p></template>\n<script setup>\nimport { ref } from 'vue';\nimport { defineStore } from 'pinia';\n</script>`,
      'packages/ui/package.json': pkg({ name: '@acme/ui', dependencies: { clsx: '^2.0.0' } }),
      'packages/ui/index.js': `import clsx from 'clsx';\nimport react from 'react';\nimport nano from 'nanoid';`,
    });
    const report = await scan(dir, { blueprint: { packageManager: 'pnpm' } as Blueprint });
    const found = ofKind(report.issues, 'undeclared-import').map((i) => [
      i.summary.split(' ')[0],
      i.file,
      i.line,
    ]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['@vitejs/plugin-react', 'vite.config.js', 2],
        ['canvas-confetti', 'src/App.jsx', 2],
        ['dayjs', 'src/App.jsx', 15],
        ['lodash', 'src/server.cjs', 1],
        ['not-typed', 'src/types.ts', 2],
        ['old-style', 'src/types.ts', 3],
        ['pinia', 'src/Widget.vue', 4],
        ['nanoid', 'packages/ui/index.js', 3],
      ]),
    );
    // Built-ins, relative paths, aliases, baseUrl folders, the package itself, workspace packages,
    // ambient modules, @types for a type-only import, a root dependency seen from a member: none.
    expect(found).toHaveLength(8);
    const confetti = report.issues.find((i) => i.summary.startsWith('canvas-confetti'))!;
    expect(confetti).toMatchObject({ severity: 'error', kind: 'undeclared-import' });
    expect(confetti.summary).toContain('package.json does not declare it');
    expect(confetti.suggestion).toContain('pnpm add canvas-confetti');
    const nano = report.issues.find((i) => i.summary.startsWith('nanoid'))!;
    expect(nano.summary).toContain('packages/ui/package.json');
    expect(ScanReport.parse(report)).toEqual(report);
  });

  it('says an undeclared package that happens to be installed is a warning, naming every importer once', async () => {
    const dir = project({
      'package.json': pkg({ scripts: { build: 'node build.js' } }),
      'a.js': "import 'left-pad';",
      'b.js': "require('left-pad');",
      'node_modules/left-pad/package.json': '{"name":"left-pad"}',
    });
    const [issue, ...rest] = ofKind((await scan(dir)).issues, 'undeclared-import');
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ severity: 'warn', file: 'a.js', line: 1 });
    expect(issue!.summary).toBe(
      'left-pad is imported by a.js:1 (and 1 more file) but package.json does not declare it.',
    );
  });
});

describe('scripts', () => {
  it('reports a project with nothing to build or serve', async () => {
    const dir = project({ 'package.json': pkg({ dependencies: { lodash: '^4.0.0' } }) });
    const [issue] = ofKind((await scan(dir)).issues, 'missing-script');
    expect(issue).toMatchObject({ severity: 'error', file: 'package.json' });
    expect(issue!.summary).toMatch(/no "build" or "start" script, and there is no index.html/);
  });

  it('reports a framework without its build script, and nothing for a plain static site', async () => {
    const vite = project({ 'package.json': pkg({ devDependencies: { vite: '^7' } }), 'index.html': '<p>hi' });
    const [issue] = ofKind((await scan(vite)).issues, 'missing-script');
    expect(issue).toMatchObject({ severity: 'warn', file: 'package.json' });
    expect(issue!.suggestion).toContain('"build": "vite build"');
    const site = project({ 'index.html': '<p>hi', 'app.js': 'console.log(1)' });
    expect(ofKind((await scan(site)).issues, 'missing-script')).toEqual([]);
    const server = project({ 'package.json': pkg({ scripts: { start: 'node server.js' } }) });
    expect(ofKind((await scan(server)).issues, 'missing-script')).toEqual([]);
  });
});

describe('JSON configs', () => {
  it('reports each invalid config with the line of its error; JSONC where the tools allow it', async () => {
    const dir = project({
      'package.json': '{\n  "name": "app",\n  "scripts": { "build": "vite build" },\n}\n',
      'tsconfig.json': '{\n  // fine\n  "compilerOptions": { "strict": true, },\n}\n',
      'tsconfig.app.json': '{\n  "compilerOptions": {\n    "strict": true\n    "jsx": "react-jsx"\n  }\n}\n',
      '.babelrc': '{ "presets": [ }',
      'app.json': '{ "expo": { "name": "x" } // no comments in strict JSON\n}',
      '.eslintrc.json': '{ /* allowed */ "root": true, }',
      'src/data.json': '{ not checked: this is data }',
    });
    const invalid = ofKind((await scan(dir)).issues, 'invalid-json').map((i) => [i.file, i.line, i.severity]);
    expect(invalid).toEqual(
      expect.arrayContaining([
        ['package.json', 4, 'error'],
        ['tsconfig.app.json', 4, 'error'],
        ['.babelrc', 1, 'warn'],
        ['app.json', 1, 'warn'],
      ]),
    );
    expect(invalid).toHaveLength(4);
  });
});

describe('committed secrets', () => {
  const GITHUB = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
  const AWS = 'AKIAIOSFODNN7EXAMPLE';
  const SLACK = 'xoxb-1234567890-abcdefghijKL';
  const OPENAI = `sk-proj-${'Zq9Xw8Vu7T'.repeat(4)}`;
  const ENV_VALUE = 's3cr3t-v4lue-do-not-leak';

  it('names them by file, line and variable, and never copies any part of a value', async () => {
    const dir = project({
      'package.json': pkg({ scripts: { build: 'vite build' } }),
      '.env': `# local settings\nAPI_KEY=${ENV_VALUE}\nPORT=3000\nEMPTY=\nexport GITHUB_TOKEN="${GITHUB}"\n`,
      '.env.example': 'API_KEY=changeme\nGITHUB_TOKEN=your-token-here\n',
      'src/config.js': `export const githubToken = "${GITHUB}";\nconst aws = { accessKeyId: '${AWS}' };\nconst hook = '${SLACK}';\nconst OPENAI_API_KEY = \`${OPENAI}\`;\nconst spinner = 'sk-fading-circle-container-element-wrapper';`,
      'deploy/server.pem': `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx\n-----END RSA PRIVATE KEY-----\n`,
      'deploy/cert.pem': '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
      'certs/store.p12': 'binary',
    });
    const report = await scan(dir);
    const secrets = ofKind(report.issues, 'committed-secret');
    const named = secrets.map((i) => [i.file, i.line, i.severity]);
    expect(named).toEqual(
      expect.arrayContaining([
        ['.env', 2, 'error'],
        ['.env', 3, 'info'],
        ['.env', 5, 'error'],
        ['src/config.js', 1, 'error'],
        ['src/config.js', 2, 'error'],
        ['src/config.js', 3, 'error'],
        ['src/config.js', 4, 'error'],
        ['deploy/server.pem', 1, 'error'],
        ['certs/store.p12', undefined, 'error'],
      ]),
    );
    expect(named).toHaveLength(9);
    const summaries = secrets.map((i) => i.summary).join('\n');
    expect(summaries).toContain('API_KEY');
    expect(summaries).toContain('a GitHub token (GITHUB_TOKEN)');
    expect(summaries).toContain('a GitHub token (githubToken)');
    expect(summaries).toContain('an AWS access key id (accessKeyId)');
    expect(summaries).toContain('an OpenAI API key (OPENAI_API_KEY)');
    expect(summaries).toContain('a Slack token');

    // Nothing of any value is in the report or its text: not whole, not 8 characters of it.
    const serialized = JSON.stringify(report) + formatScanReport(report);
    for (const secret of [GITHUB, AWS, SLACK, OPENAI, ENV_VALUE, 'MIIEowIBAAKCAQEAx']) {
      for (let i = 0; i + 8 <= secret.length; i++) expect(serialized).not.toContain(secret.slice(i, i + 8));
    }
  });
});

describe('oversized files', () => {
  it('flags files over 5 MB anywhere and over 1 MB in src/', async () => {
    const dir = project({
      'package.json': pkg({ scripts: { build: 'vite build' } }),
      'src/data/big.json': 1.5 * 1024 * 1024,
      'public/video.bin': 6 * 1024 * 1024,
      'public/photo.bin': 2 * 1024 * 1024,
      'dist/bundle.js': 7 * 1024 * 1024,
    });
    const oversized = ofKind((await scan(dir)).issues, 'oversized-file').map((i) => [i.file, i.summary]);
    expect(oversized).toEqual([
      ['public/video.bin', 'public/video.bin is 6.0 MB.'],
      ['src/data/big.json', 'src/data/big.json is 1.5 MB (over 1 MB in src/).'],
    ]);
  });
});

describe('bounds', () => {
  it('reads at most so many files and says the scan is partial', async () => {
    const files: Record<string, string> = { 'package.json': pkg({ scripts: { build: 'x' } }) };
    for (let i = 0; i < 30; i++) files[`src/f${i}.js`] = `import x${i} from 'pkg-${i}';`;
    const report = await scan(project(files), { limits: { maxFiles: 11 } });
    expect(report.files).toBe(11);
    expect(report.incomplete).toBe('only 11 files were read.');
    // package.json is read first, so what was read is still judged against it.
    expect(ofKind(report.issues, 'undeclared-import')).toHaveLength(10);
    expect(formatScanReport(report)).toContain('The scan is partial: only 11 files were read.');
  });
});

describe('the last failure', () => {
  it("reports the newest failed build's diagnosis with its place", async () => {
    const dir = project({ 'package.json': pkg({ scripts: { build: 'vite build' } }) });
    const failed = Build.parse({
      id: 'b7-abc',
      projectName: 'app',
      status: 'failed',
      stage: 'build-failed',
      createdAt: new Date().toISOString(),
      endedAt: null,
      durationMs: null,
      cacheHit: false,
      noCache: false,
      sourceHash: null,
      blueprint: null,
      stages: [],
      steps: [],
      test: null,
      uiCheck: null,
      bundle: null,
      previewUrl: null,
      cancelReason: null,
      error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
      diagnosis: {
        code: 'MISSING_FILE',
        summary: 'src/App.jsx imports ./Header, which does not exist.',
        file: 'src/App.jsx',
        line: 3,
        suggestion: 'Create src/Header.jsx or fix the import.',
      },
      logCount: 0,
      logTruncated: false,
    });
    const [issue] = ofKind((await scan(dir, { lastFailedBuild: failed })).issues, 'last-failure');
    expect(issue).toEqual({
      kind: 'last-failure',
      severity: 'error',
      summary: 'The last build (b7-abc) failed: src/App.jsx imports ./Header, which does not exist.',
      file: 'src/App.jsx',
      line: 3,
      suggestion: 'Create src/Header.jsx or fix the import.',
    });
  });
});

describe('type errors', () => {
  // The repository's own TypeScript stands in for a project's installed one.
  const typescript = path.dirname(createRequire(import.meta.url).resolve('typescript/package.json'));

  it("runs the project's own tsc when it is installed and reports errors with file:line", async () => {
    const dir = project({
      'package.json': pkg({ scripts: { build: 'tsc' }, devDependencies: { typescript: '^6' } }),
      'tsconfig.json':
        '{ "compilerOptions": { "strict": true, "types": [], "skipLibCheck": true }, "include": ["src"] }',
      'src/ok.ts': 'export const a: number = 1;\n',
      'src/bad.ts': 'export const n: number = 1;\n\nexport const s: string = n;\n',
    });
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(typescript, path.join(dir, 'node_modules', 'typescript'));
    const report = await scan(dir, { typeCheck: true });
    expect(report.typeChecked).toBe(true);
    const errors = ofKind(report.issues, 'type-error');
    expect(errors).toEqual([
      {
        kind: 'type-error',
        severity: 'error',
        summary: "TS2322: Type 'number' is not assignable to type 'string'.",
        file: 'src/bad.ts',
        line: 3,
      },
    ]);
  }, 60_000);

  it('does not run without installed dependencies', async () => {
    const dir = project({
      'package.json': pkg({ scripts: { build: 'tsc' } }),
      'tsconfig.json': '{}',
      'src/bad.ts': 'export const s: string = 1;\n',
    });
    const report = await scan(dir, { typeCheck: true });
    expect(report.typeChecked).toBe(false);
    expect(ofKind(report.issues, 'type-error')).toEqual([]);
  });
});
