import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blueprint, Build } from '@forge/shared';
import type { ProjectFiles } from '@forge/testing';
import { makeZip } from '../build-helpers.ts';
import { lockfileFor } from '../real-world-projects.ts';
import { RealDaemon, json, page, type CliRun } from './harness.ts';

/**
 * What real repositories expect of a build machine, and repairs that never do harm, through one
 * spawned daemon with installs from the npm registry: a build that writes ~/.config and ~/.cache and
 * reads its git history, lockfiles resolved against a registry mirror this machine does not reach
 * (npm's flag, Yarn 1's rewritten lockfile), Cypress installed without its binary (its test step
 * skipped, saying why), git dependencies that fail as NETWORK_AT_BUILD naming the host (npm, bun),
 * and `forge fix` with nothing to change, through the built CLI.
 */

const exec = promisify(execFile);
const BUILD_TIMEOUT_MS = 240_000;
const MIRROR = 'registry.npmmirror.com';
/** Versions that exist on the registry (npm view). */
const IS_ODD = '3.0.1';
const CYPRESS = '15.3.0';
const BUN = '1.4.5';

type Name = 'homeGit' | 'mirrorNpm' | 'mirrorYarn' | 'cypress' | 'gitDepNpm' | 'gitDepBun' | 'fixNothing';

let daemon: RealDaemon;
const builds = {} as Record<Name, Promise<Build>>;
let homeGitCli: Promise<CliRun>;

/** The built CLI as a CI job runs it. */
const forge = (args: string[]): Promise<CliRun> => daemon.forge(args, { CI: 'true' });

/** A package-lock.json made by npm for `files`, with its resolved URLs written as a mirror would. */
async function npmLockOnMirror(files: ProjectFiles): Promise<string> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-npm-lock-'));
  try {
    fs.writeFileSync(path.join(scratch, 'package.json'), String(files['package.json']));
    await exec(
      'npm',
      [
        'install',
        '--package-lock-only',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--omit-lockfile-registry-resolved=false',
      ],
      { cwd: scratch },
    );
    return fs
      .readFileSync(path.join(scratch, 'package-lock.json'), 'utf8')
      .replaceAll('registry.npmjs.org', MIRROR);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** A page written by the build with what it used: `node build.mjs`. */
const oddBuild = `import isOdd from 'is-odd';
import fs from 'node:fs';
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><title>odd</title><p>3 is odd: ' + isOdd(3) + '</p>');
`;

const caseBuild =
  "import { page } from './Page.mjs';\nimport fs from 'node:fs';\nfs.mkdirSync('dist', { recursive: true });\nfs.writeFileSync('dist/index.html', page());\n";

beforeAll(async () => {
  daemon = await RealDaemon.start('machine', {
    buildTimeoutMs: BUILD_TIMEOUT_MS,
    // RepairBot proposes instead of repairing, so forge fix has a proposal to act on.
    settings: { autoRepair: false },
  });
  const start = (zipName: string, files: ProjectFiles | Promise<ProjectFiles>): Promise<Build> =>
    daemon.build(zipName, files);

  // Through the built CLI: `forge upload --wait --json`, its exit code and its result.
  const homeGitZip = makeZip('docs-stamp.zip', {
    'package.json': json({
      name: 'docs-stamp',
      private: true,
      type: 'module',
      scripts: { build: 'node build.mjs' },
    }),
    'build.mjs': `import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// Tools keep telemetry and caches in the home folder.
fs.mkdirSync(path.join(os.homedir(), '.config', 'stamp'), { recursive: true });
fs.writeFileSync(path.join(os.homedir(), '.config', 'stamp', 'telemetry.json'), '{"enabled":false}');
fs.mkdirSync(path.join(os.homedir(), '.cache'), { recursive: true });
fs.writeFileSync(path.join(os.homedir(), '.cache', 'stamp-cache'), 'warm');
let daemonHome = 'refused';
try { fs.writeFileSync(${JSON.stringify(path.join(daemon.userHome, 'written-by-a-build'))}, 'x'); daemonHome = 'WRITTEN'; } catch {}
const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();
const commit = git('rev-parse', 'HEAD');
const updated = git('log', '-1', '--format=%cI');
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><title>docs</title><p>version ' + commit.slice(0, 12) + '</p><p>last updated ' + updated + '</p><p>daemon home ' + daemonHome + '</p>');
`,
  });
  homeGitCli = forge(['upload', homeGitZip, '--wait', '--json']);
  builds.homeGit = daemon.buildOf(homeGitCli);
  builds.homeGit.catch(() => undefined);

  builds.gitDepNpm = start('git-dep-npm.zip', {
    'package.json': json({
      name: 'git-dep-npm',
      private: true,
      scripts: { build: 'node build.mjs' },
      dependencies: { 'is-odd': 'git+https://github.com/jonschlinkert/is-odd.git' },
    }),
    'build.mjs': oddBuild,
  });
  builds.gitDepBun = start('git-dep-bun.zip', {
    'package.json': json({
      name: 'git-dep-bun',
      private: true,
      packageManager: `bun@${BUN}`,
      scripts: { build: 'node build.mjs' },
      dependencies: { 'is-odd': 'git+https://github.com/jonschlinkert/is-odd.git' },
    }),
    'build.mjs': oddBuild,
  });
  builds.fixNothing = start('case-app.zip', {
    'package.json': json({ name: 'case-app', private: true, scripts: { build: 'node build.mjs' } }),
    'build.mjs': caseBuild,
    'page.mjs': "export const page = () => '<!doctype html><h1>fixed by hand</h1>';\n",
  });

  const oddPackage = (name: string) => ({
    'package.json': json({
      name,
      private: true,
      type: 'module',
      scripts: { build: 'node build.mjs' },
      dependencies: { 'is-odd': IS_ODD },
    }),
    'build.mjs': oddBuild,
  });
  const npmMirror = oddPackage('mirror-npm');
  builds.mirrorNpm = start(
    'mirror-npm.zip',
    npmLockOnMirror(npmMirror).then((lock) => ({ ...npmMirror, 'package-lock.json': lock })),
  );
  const yarnMirror = oddPackage('mirror-yarn');
  builds.mirrorYarn = start(
    'mirror-yarn.zip',
    lockfileFor('yarn', yarnMirror).then((lock) => ({
      ...yarnMirror,
      'yarn.lock': lock.replaceAll('registry.yarnpkg.com', MIRROR).replaceAll('registry.npmjs.org', MIRROR),
    })),
  );
  const cypress = {
    'package.json': json({
      name: 'cypress-site',
      private: true,
      scripts: { build: 'node build.mjs', test: 'cypress run' },
      devDependencies: { cypress: CYPRESS },
    }),
    'build.mjs':
      "import fs from 'node:fs';\nfs.mkdirSync('dist', { recursive: true });\nfs.writeFileSync('dist/index.html', '<!doctype html><h1>tested by Cypress elsewhere</h1>');\n",
    'cypress.config.mjs': 'export default { e2e: { supportFile: false } };\n',
  };
  builds.cypress = start(
    'cypress-site.zip',
    lockfileFor('yarn', cypress).then((lock) => ({ ...cypress, 'yarn.lock': lock })),
  );
}, 180_000);

afterAll(() => daemon.stop(), 120_000);

const logLines = (build: Build) => daemon.logLines(build);
const succeeded = (name: Name) => daemon.ended(builds[name]);

const decision = (bp: Blueprint | null | undefined, field: string) =>
  bp?.decisions.find((d) => d.field === field);

describe('a build machine as real repositories expect it', () => {
  it('a build writes ~/.config and ~/.cache in a home of its own, reads its git history, and cannot write the daemon user’s home', async () => {
    const cli = await homeGitCli;
    expect(cli.code, cli.stderr).toBe(0);
    const build = await succeeded('homeGit');
    expect(build.blueprint?.gitSnapshot).toBe(true);
    expect(decision(build.blueprint, 'git')).toMatchObject({ value: 'snapshot', file: null });
    const home = path.join(daemon.home, 'homes', 'docs-stamp');
    expect(fs.readFileSync(path.join(home, '.config', 'stamp', 'telemetry.json'), 'utf8')).toBe(
      '{"enabled":false}',
    );
    expect(fs.readFileSync(path.join(home, '.cache', 'stamp-cache'), 'utf8')).toBe('warm');
    expect(fs.existsSync(path.join(daemon.userHome, 'written-by-a-build'))).toBe(false);

    const projectDir = path.join(daemon.home, 'projects', 'docs-stamp');
    const { stdout: head } = await exec('git', ['rev-parse', 'HEAD'], { cwd: projectDir });
    const html = await page(build);
    expect(html).toContain(`version ${head.trim().slice(0, 12)}`);
    expect(html).toMatch(/last updated \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00/);
    // Whatever the build wrote there stayed in its sandbox (the daemon's HOME here is under /tmp,
    // which the sandbox replaces with its own): nothing reached the daemon user's folder.
    expect(html).toMatch(/daemon home (?:refused|WRITTEN)/);
    expect(await logLines(build)).toContainEqual(
      expect.stringMatching(
        /^BuildBot: git: a repository of the uploaded files .*commit [0-9a-f]{12} on main by Forge \(2 files/,
      ),
    );
    // The repository is the build's: never in the download.
    const zip = Buffer.from(
      await (await fetch(`${daemon.url}/api/projects/docs-stamp/download`)).arrayBuffer(),
    );
    expect(zip.includes(Buffer.from('.git/HEAD'))).toBe(false);
  });

  it("npm: a lockfile resolved on a mirror installs from the npm registry with npm's --replace-registry-host", async () => {
    const build = await succeeded('mirrorNpm');
    expect(build.blueprint?.mirrorHosts).toEqual([MIRROR]);
    expect(build.blueprint?.env.npm_config_replace_registry_host).toBe(MIRROR);
    expect(decision(build.blueprint, 'registry')).toMatchObject({
      value: `${MIRROR} → https://registry.npmjs.org/`,
      file: 'package-lock.json',
    });
    expect(await page(build)).toContain('3 is odd: true');
  });

  it('Yarn 1: a yarn.lock resolved on a mirror is rewritten (its URLs only) and installs from the npm registry', async () => {
    const build = await succeeded('mirrorYarn');
    expect(build.blueprint?.mirrorHosts).toEqual([MIRROR]);
    expect(decision(build.blueprint, 'registry')?.rule).toMatch(/yarn\.lock rewritten before the install/);
    expect(await logLines(build)).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^DependencyBot: yarn\\.lock: \\d+ resolved URLs? on ${MIRROR.replaceAll('.', '\\.')} now point at https://registry\\.npmjs\\.org/`,
        ),
      ),
    );
    const lock = fs.readFileSync(path.join(daemon.home, 'projects', 'mirror-yarn', 'yarn.lock'), 'utf8');
    expect(lock).not.toContain(MIRROR);
    expect(lock).toContain(`is-odd@${IS_ODD}`);
    expect(await page(build)).toContain('3 is odd: true');
  });

  it('Cypress installs without its binary, and its test step is skipped saying what it lacks', async () => {
    const build = await succeeded('cypress');
    expect(build.blueprint?.env.CYPRESS_INSTALL_BINARY).toBe('0');
    expect(decision(build.blueprint, 'binaryDownload')).toMatchObject({
      value: 'CYPRESS_INSTALL_BINARY=0',
      file: 'package.json',
    });
    expect(await page(build)).toContain('tested by Cypress elsewhere');
    expect(build.test).toMatchObject({ ran: true, passed: null });
    expect(build.test?.reason).toMatch(
      /Cypress's test runner binary is not installed; the install skipped its download \(CYPRESS_INSTALL_BINARY=0/,
    );
    expect(build.steps.find((s) => s.name === 'test')?.status).toBe('skipped');
  });

  it.each([
    ['gitDepNpm', 'npm'],
    ['gitDepBun', 'bun'],
  ] as const)(
    'a git dependency fails the install as NETWORK_AT_BUILD naming github.com (%s)',
    async (name, _tool) => {
      const build = await builds[name];
      expect(build.status).toBe('failed');
      expect(build.error?.code).toBe('INSTALL_FAILED');
      expect(build.diagnosis).toMatchObject({ code: 'NETWORK_AT_BUILD', subjects: ['github.com'] });
      expect(build.diagnosis?.summary).toBe('The install needed the network and could not reach github.com.');
    },
  );

  it('forge fix with nothing to change says why, exits 1 and starts no build', async () => {
    const failed = await builds.fixNothing;
    expect(failed.status).toBe('failed');
    expect(failed.diagnosis).toMatchObject({ code: 'IMPORT_CASE_MISMATCH', repair: 'FIX_IMPORT_CASE' });
    // Corrected by hand (the editor) before forge fix.
    const file = path.join(daemon.home, 'projects', 'case-app', 'build.mjs');
    fs.writeFileSync(file, caseBuild.replace('./Page.mjs', './page.mjs'));
    const fix = await forge(['fix', failed.id]);
    expect(fix.code).toBe(1);
    expect(fix.stderr).toContain(
      `RepairBot has nothing to change for build ${failed.id} (FIX_IMPORT_CASE): build.mjs has no import of "./Page.mjs". No build was started: it would fail the same way.`,
    );
    const list = (await (await fetch(`${daemon.url}/api/builds?project=case-app`)).json()) as Build[];
    expect(list.map((b) => b.id)).toEqual([failed.id]);
  });
});
