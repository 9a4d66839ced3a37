import { BuildDiff, CliResult } from '@forge/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmLockfile, writeZip } from '@forge/testing';
import { Sandbox } from './helpers.ts';

// `forge diff <build>` against the real built daemon: a project built green, then uploaded with
// is-number bumped (package.json and the lockfile the real npm writes) and a build script that throws.

let sandbox: Sandbox;
let green: string;
let red: string;

const GREEN_BUILD = `const fs = require('node:fs');
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<h1>' + require('is-number')(1) + '</h1>');
`;
const RED_BUILD = `const fs = require('node:fs');
throw new Error('the renderer is gone');
`;

async function upload(isNumber: string, build: string, dir: string): Promise<string> {
  const pkg = {
    name: 'diff-app',
    private: true,
    scripts: { build: 'node build.js' },
    dependencies: { 'is-number': isNumber },
  };
  const zip = writeZip(dir, 'diff-app.zip', {
    'package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'package-lock.json': await npmLockfile(pkg),
    'build.js': build,
    'README.md': 'unchanged\n',
  });
  const run = await sandbox.run(['upload', zip, '--wait', '--json']);
  const result = CliResult.parse(JSON.parse(run.stdout));
  if (!('buildId' in result) || !result.buildId) throw new Error(run.stdout + run.stderr);
  return result.buildId;
}

beforeAll(async () => {
  sandbox = await Sandbox.withDaemon();
  const { mkdtemp } = await import('node:fs/promises');
  const { join } = await import('node:path');
  green = await upload('6.0.0', GREEN_BUILD, await mkdtemp(join(sandbox.cwd, 'green-')));
  red = await upload('7.0.0', RED_BUILD, await mkdtemp(join(sandbox.cwd, 'red-')));
}, 300_000);
afterAll(async () => {
  await sandbox.dispose();
});

describe('forge diff', () => {
  it('prints what the error points at first, then the changed files with their diff and the bumped package', async () => {
    const run = await sandbox.run(['diff', red]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^Points at: /);
    expect(lines[0]).toContain(`since ${green}, the last green build`);
    expect(run.stdout).toContain(
      `Build ${red} (failed) compared with ${green}, the last green build of diff-app.`,
    );
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    // Sections in order: files (with the unified diff), dependencies, toolchain, plan, environment.
    expect(at('Source files: 3 files changed (3 modified, 0 added, 0 removed).')).toBeGreaterThan(0);
    expect(at('  modified build.js')).toBeGreaterThan(at('Source files:'));
    expect(at("    +throw new Error('the renderer is gone');")).toBeGreaterThan(at('  modified build.js'));
    expect(at('  modified package-lock.json (lockfile: see dependencies)')).toBeGreaterThan(0);
    expect(at('Dependencies (package-lock.json):')).toBeGreaterThan(at('Source files:'));
    expect(at('  upgraded   is-number 6.0.0 → 7.0.0')).toBeGreaterThan(at('Dependencies'));
    expect(at('Toolchain: unchanged.')).toBeGreaterThan(at('Dependencies'));
    expect(at('Plan: unchanged.')).toBeGreaterThan(at('Toolchain'));
    expect(at('Environment names: unchanged.')).toBeGreaterThan(at('Plan'));
    expect(run.stdout).not.toContain('README.md');
  });

  it('--json prints the comparison', async () => {
    const run = await sandbox.run(['diff', red, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const diff = BuildDiff.parse(JSON.parse(run.stdout));
    expect(diff).toMatchObject({ buildId: red, greenBuildId: green, projectName: 'diff-app' });
    expect(diff.dependencies.changed).toEqual([
      { name: 'is-number', from: '6.0.0', to: '7.0.0', upgrade: true },
    ]);
    expect(diff.files.changes.map((c) => c.path).sort()).toEqual([
      'build.js',
      'package-lock.json',
      'package.json',
    ]);
  });

  it("refuses a green build, with the daemon's words and a failure exit", async () => {
    const run = await sandbox.run(['diff', green]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Build ${green} of diff-app succeeded: only a failed build is compared with the last green build.`,
    );
    expect(run.stdout).toBe('');
  });
});
