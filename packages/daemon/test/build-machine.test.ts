import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UploadResult } from '@forge/shared';
import { sandboxAvailable } from '../src/capabilities/exec/index.ts';
import { cleanup, startTestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';

/**
 * The build machine through a real daemon, with a project that needs no registry: its build writes
 * ~/.config and ~/.cache (in the project's own home under FORGE_HOME) and reads the git history of
 * the upload (`git log -1`, `git rev-parse HEAD`), which Forge made for it.
 */
afterEach(cleanup);

const available = await sandboxAvailable();

describe.skipIf(!available)('a build machine with a writable home and a git history', () => {
  it('builds a project whose script writes its home and stamps its version from git', async () => {
    // The daemon user's real home (this process's): read-only to a sandboxed build.
    const userHome = os.homedir();
    const probe = `forge-build-probe-${process.pid}`;
    const app = await startTestApp();
    const live = await watch(app);
    const res = await upload(
      app,
      makeZip('stamped.zip', {
        'package.json': JSON.stringify({
          name: 'stamped',
          private: true,
          scripts: { build: 'node build.cjs' },
        }),
        'build.cjs': `const { execFileSync } = require('child_process');
const fs = require('fs'), os = require('os'), path = require('path');
fs.mkdirSync(path.join(os.homedir(), '.config', 'x'), { recursive: true });
fs.writeFileSync(path.join(os.homedir(), '.config', 'x', 'y'), 'settings');
fs.mkdirSync(path.join(os.homedir(), '.cache'), { recursive: true });
fs.writeFileSync(path.join(os.homedir(), '.cache', 'z'), 'cache');
let user = 'refused';
try { fs.writeFileSync(${JSON.stringify(path.join(userHome, probe))}, 'x'); user = 'written'; } catch {}
const date = execFileSync('git', ['log', '-1', '--format=%cd'], { encoding: 'utf8' }).trim();
const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<p>' + head + ' ' + date + ' ' + user + '</p>');
`,
      }),
    );
    const { buildId } = (await res.json()) as UploadResult;
    const build = await live.finished(buildId!, 60_000);
    expect(build.status, JSON.stringify(build.error)).toBe('succeeded');
    expect(build.blueprint?.gitSnapshot).toBe(true);
    const home = path.join(app.home, 'homes', 'stamped');
    expect(fs.readFileSync(path.join(home, '.config', 'x', 'y'), 'utf8')).toBe('settings');
    expect(fs.readFileSync(path.join(home, '.cache', 'z'), 'utf8')).toBe('cache');
    expect(fs.existsSync(path.join(userHome, probe))).toBe(false);
    const projectDir = path.join(app.home, 'projects', 'stamped');
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: projectDir,
      encoding: 'utf8',
    }).trim();
    const html = await (await fetch(build.previewUrl!)).text();
    expect(html).toMatch(new RegExp(`<p>${head} \\w{3} \\w{3} \\d+ [\\d:]+ \\d{4} \\+0000 refused</p>`));
    // The history is the build's: the file tree folds .git, the source hash leaves it out.
    const tree = (await (await fetch(`${app.url}/api/files/structure?project=stamped`)).json()) as unknown;
    expect(JSON.stringify(tree)).toContain('build.cjs');
    expect(JSON.stringify(tree)).not.toContain('"HEAD"');
  });
});
