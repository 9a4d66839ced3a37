import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliResult, type Build, type UndoRepairResult } from '@forge/shared';
import { makeZip } from '../build-helpers.ts';
import { tempDir } from '../helpers.ts';
import { caseNamed } from '../../src/capabilities/diagnose/fixtures/cases.ts';
import { RealDaemon, json, type CliRun } from './harness.ts';

/**
 * Three failures met building public repositories, each diagnosed for what it is and, where a repair
 * is safe, repaired (docs/assistants.md, "ScanBot"): a server that needs a secret it was not given
 * (MISSING_ENV; given it in the forge config, the same app serves), dependencies the registry does
 * not have (PACKAGE_NOT_ON_REGISTRY: a range, and a lockfile pinning an unpublished version), and
 * react/react-dom pinned apart (MISMATCHED_PACKAGE_VERSIONS, repaired by ALIGN_PACKAGE_VERSIONS in the
 * same build, then undone). One daemon for the file, every project uploaded up front; installs are
 * real, from the npm registry.
 */

const BUILD_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = BUILD_TIMEOUT_MS + 30_000;
const run = promisify(execFile);

/** A Node server that refuses to start without a 32-character session secret, as its README asks. */
const SECRET_SERVER = {
  'package.json': json({
    name: 'notes-server',
    private: true,
    version: '1.0.0',
    scripts: { start: 'node server.js' },
  }),
  'server.js': `const secret = process.env.SESSION_SECRET;
if (!secret || secret.length < 32) throw new Error('SESSION_SECRET must be set and at least 32 characters long');
require('node:http')
  .createServer((req, res) => res.end('<!doctype html><title>Notes</title><h1>Notes, signed with a long secret</h1>'))
  .listen(Number(process.env.PORT));
`,
  '.env.example': '# Signs the session cookie: 32 characters or more.\nSESSION_SECRET=\n',
};
const PREVIEW_SECRET = 'forge-preview-secret-0123456789abcdef';

/** react and react-dom pinned apart; the build renders the page with react-dom/server. */
const REACT_APART = {
  'package.json': json({
    name: 'react-apart',
    private: true,
    version: '1.0.0',
    type: 'module',
    scripts: { build: 'node build.js' },
    dependencies: { react: '19.1.1', 'react-dom': '19.1.0' },
  }),
  'build.js': `import { mkdirSync, writeFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

mkdirSync('dist', { recursive: true });
writeFileSync('dist/index.html', \`<!doctype html><title>React</title>\${renderToStaticMarkup(createElement('h1', null, 'Rendered by React'))}\`);
`,
};

/** A capture case's project (diagnose/fixtures/cases.ts) with a build script, as a site would have. */
function buildable(files: Record<string, string>): Record<string, string> {
  const pkg = JSON.parse(files['package.json']!) as Record<string, unknown>;
  return {
    ...files,
    'package.json': json({ ...pkg, scripts: { build: 'node build.mjs' } }),
    'build.mjs':
      "import fs from 'node:fs';\nfs.mkdirSync('dist', { recursive: true });\nfs.writeFileSync('dist/index.html', '<h1>odd</h1>');\n",
  };
}

type Name = 'secretGiven' | 'range' | 'lockfile' | 'react';
/** The project's files with the lockfile npm writes for them (resolved from the registry). */
async function withLockfile(files: Record<string, string>): Promise<Record<string, string>> {
  const dir = tempDir('forge-diagnoses-lock-');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  await run('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund'], {
    cwd: dir,
    timeout: 120_000,
  });
  return { ...files, 'package-lock.json': fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8') };
}

let daemon: RealDaemon;
const builds = {} as Record<Name, Promise<Build>>;
let cliRun: Promise<CliRun>;

beforeAll(async () => {
  daemon = await RealDaemon.start('diagnoses', { buildTimeoutMs: BUILD_TIMEOUT_MS });
  builds.secretGiven = daemon.build('notes-server-configured.zip', {
    ...SECRET_SERVER,
    'package.json': SECRET_SERVER['package.json'].replace('notes-server', 'notes-server-configured'),
    '.forgerc.json': json({ env: { SESSION_SECRET: PREVIEW_SECRET } }),
  });
  builds.range = daemon.build('not-on-registry.zip', buildable(caseNamed('npm-no-matching-version').files));
  builds.lockfile = daemon.build(
    'pinned-unpublished.zip',
    buildable(caseNamed('npm-lockfile-missing-version').files),
  );
  builds.react = daemon.build('react-apart.zip', withLockfile(REACT_APART));
  // The server without its secret goes through the built CLI, as a user uploads it.
  cliRun = daemon.forge(['upload', makeZip('notes-server.zip', SECRET_SERVER), '--wait', '--json']);
}, 180_000);

afterAll(() => daemon.stop(), 120_000);

const logLines = (build: Build) => daemon.logLines(build);
const ended = (name: Name, status: Build['status']) => daemon.ended(builds[name], status);

const projectFile = (build: Build, rel: string): string =>
  fs.readFileSync(path.join(daemon.home, 'projects', build.projectName, rel), 'utf8');

describe('diagnoses of real failures through a real daemon', { timeout: TEST_TIMEOUT_MS }, () => {
  describe('a server that needs SESSION_SECRET (documented in .env.example)', () => {
    it('uploaded with the CLI: exits 1, and the JSON names the variable, the file and the forge config key', async () => {
      const { code, stdout, stderr } = await cliRun;
      expect(code, stderr).toBe(1);
      const result = CliResult.parse(JSON.parse(stdout));
      expect(result).toMatchObject({
        status: 'failed',
        projectName: 'notes-server',
        error: { code: 'PREVIEW_FAILED' },
        diagnosis: {
          code: 'MISSING_ENV',
          subjects: ['SESSION_SECRET'],
          // Where the server reads it; the suggestion names .env.example, which documents it.
          file: 'server.js',
          line: 1,
          summary: `The app's server needs the environment variable SESSION_SECRET, which is not set: "SESSION_SECRET must be set and at least 32 characters long".`,
        },
      });
      if (result.status !== 'failed') throw new Error('unreachable');
      expect(result.diagnosis?.suggestion).toContain('{ "env": { "SESSION_SECRET": "…" } }');
      expect(result.diagnosis?.suggestion).toContain('.env.example documents it.');
      expect(result.diagnosis?.repair).toBeUndefined();
    });

    it('given the variable in the forge config "env", as the diagnosis says, the same server previews', async () => {
      const build = await ended('secretGiven', 'succeeded');
      const page = await (await fetch(build.previewUrl!)).text();
      expect(page).toContain('<h1>Notes, signed with a long secret</h1>');
      expect(build.blueprint?.decisions).toContainEqual(
        expect.objectContaining({ field: 'env', value: 'SESSION_SECRET', file: '.forgerc.json' }),
      );
      // The value never reaches the log.
      expect((await logLines(build)).join('\n')).not.toContain(PREVIEW_SECRET);
    });
  });

  describe('dependencies the registry does not have', () => {
    it('a range no release matches: PACKAGE_NOT_ON_REGISTRY naming package.json and the registry', async () => {
      const build = await ended('range', 'failed');
      expect(build.error?.code).toBe('INSTALL_FAILED');
      expect(build.diagnosis).toMatchObject({
        code: 'PACKAGE_NOT_ON_REGISTRY',
        file: 'package.json',
        subjects: ['is-odd@^9.9.9', expect.stringMatching(/^[\w.-]+(?::\d+)?$/)],
      });
      const host = build.diagnosis!.subjects![1]!;
      expect(build.diagnosis?.summary).toBe(
        `package.json asks for is-odd@^9.9.9, and ${host} has no version that matches.`,
      );
      expect(build.diagnosis?.suggestion).toContain('npm view is-odd versions');
      expect(build.repairs).toEqual([]);
    });

    it('a lockfile pinning a version never published: names the lockfile, not the network', async () => {
      const build = await ended('lockfile', 'failed');
      expect(build.diagnosis).toMatchObject({
        code: 'PACKAGE_NOT_ON_REGISTRY',
        file: 'package-lock.json',
        subjects: ['is-odd@3.0.9', expect.any(String)],
      });
      expect(build.diagnosis?.summary).toMatch(
        /^package-lock\.json pins is-odd 3\.0\.9 \(package\.json asks for \^3\.0\.1\), and \S+ has no such version\.$/,
      );
    });
  });

  describe('react and react-dom pinned apart in package.json', () => {
    it('is diagnosed, aligned by RepairBot and built in the same build; the page renders', async () => {
      const build = await ended('react', 'succeeded');
      const diagnose = build.steps.find((s) => s.name === 'diagnose');
      expect(diagnose?.detail).toBe(
        'MISMATCHED_PACKAGE_VERSIONS: react 19.1.1 and react-dom 19.1.0 must be the exact same version, and package.json asks for them apart ("react": "19.1.1", "react-dom": "19.1.0").',
      );
      expect(build.repairs).toEqual([
        expect.objectContaining({
          code: 'ALIGN_PACKAGE_VERSIONS',
          status: 'applied',
          files: ['package.json', 'package-lock.json'],
          summary: 'RepairBot set react-dom to 19.1.1 in package.json (was "19.1.0"), the version of react',
        }),
      ]);
      // Proven by the next attempt: installed unlocked, built, served.
      expect(build.steps.filter((s) => s.name === 'install').map((s) => s.status)).toEqual([
        'succeeded',
        'succeeded',
      ]);
      expect(await (await fetch(build.previewUrl!)).text()).toContain('<h1>Rendered by React</h1>');
      expect(JSON.parse(projectFile(build, 'package.json')).dependencies).toEqual({
        react: '19.1.1',
        'react-dom': '19.1.1',
      });
      const lock = JSON.parse(projectFile(build, 'package-lock.json')) as {
        packages: Record<string, { version: string }>;
      };
      expect(lock.packages['node_modules/react-dom']?.version).toBe('19.1.1');
    });

    it('is undone: package.json and the lockfile are the uploaded ones again', async () => {
      const build = await ended('react', 'succeeded');
      const res = await fetch(`${daemon.url}/api/projects/${build.projectName}/repairs/undo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(200);
      const undone = (await res.json()) as UndoRepairResult;
      expect(undone.files.sort()).toEqual(['package-lock.json', 'package.json']);
      expect(projectFile(build, 'package.json')).toBe(REACT_APART['package.json']);
      const lock = JSON.parse(projectFile(build, 'package-lock.json')) as {
        packages: Record<string, { version: string }>;
      };
      expect(lock.packages['node_modules/react-dom']?.version).toBe('19.1.0');
    });
  });
});
