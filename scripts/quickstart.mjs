#!/usr/bin/env node
// The README's two commands, runnable on a fresh clone with only Node and npm:
//   npm start  → install, build, run Forge in the foreground (prints the URL)
//   npm test   → install, build, run every test, print "tests: N passed, N failed"
// Plain Node on purpose: it runs before any dependency is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const mode = process.argv[2];
if (mode !== 'start' && mode !== 'test') {
  console.error('usage: node scripts/quickstart.mjs start|test');
  process.exit(2);
}
const PNPM_SPEC = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager; // pnpm@10.x

const [major] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && Number(process.versions.node.split('.')[1]) < 19)) {
  console.error(`Forge needs Node >= 20.19 (this is ${process.version}).`);
  process.exit(1);
}

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (res.error) throw res.error;
  return res.status ?? 1;
}

/** pnpm from PATH, else through npx (corepack is not relied on: its signature check fails offline). */
function pnpmCommand() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (probe.status === 0 && probe.stdout.trim().startsWith('10.')) return ['pnpm', []];
  return ['npx', ['--yes', PNPM_SPEC]];
}

function step(label, cmd, args, opts) {
  console.error(`\n▸ ${label}`);
  const code = run(cmd, args, opts);
  if (code !== 0) {
    console.error(`✗ ${label} failed (exit ${code})`);
    process.exit(code);
  }
}

const have = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
/** Root on a Debian machine: what is missing is installed here, with apt-get. */
const canApt = typeof process.getuid === 'function' && process.getuid() === 0 && have('apt-get');
const aptInstall = (packages, why) =>
  step(`Installing ${packages.join(', ')} (apt-get${why ? `; ${why}` : ''})`, 'sh', [
    '-c',
    `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages.join(' ')}`,
  ]);

/**
 * The full suite drives Debian's Chromium (browser tests), tmux (the TUI test), bubblewrap (the build
 * sandbox), Info-ZIP unzip (extraction reference), redis-server (scale-out), zsh and fish (shell
 * completion), script(1) (CLI output on a terminal), xmllint (JUnit reports against their schema)
 * and the toolchains of the other stacks' fixtures (python3-venv, python3-django, golang-go,
 * php-cli, composer, hugo, jekyll with Bundler, mkdocs, pipenv). As root
 * on a Debian machine they are installed here; elsewhere the command to run is printed.
 */
function ensureTestTools() {
  const missing = [];
  if (!existsSync('/usr/bin/chromium')) missing.push('chromium');
  if (!have('tmux')) missing.push('tmux');
  if (!have('bwrap')) missing.push('bubblewrap');
  if (!have('unzip')) missing.push('unzip');
  // Scale-out and worker tests run a real Redis on a loopback port; completion tests load the
  // scripts into zsh and fish.
  if (!have('redis-server')) missing.push('redis-server');
  if (!have('zsh')) missing.push('zsh');
  if (!have('fish')) missing.push('fish');
  if (!have('script')) missing.push('bsdutils');
  // Fixtures of other stacks build with Debian's toolchains: Python's venv, Go, PHP and Composer,
  // Hugo, Jekyll and MkDocs (Deno is fetched from the npm registry by Forge itself).
  if (have('dpkg') && spawnSync('dpkg', ['-s', 'python3-venv'], { stdio: 'ignore' }).status !== 0) {
    missing.push('python3-venv');
  }
  // Django's fixture installs Django from wheels the test makes of Debian's python3-django.
  if (!have('django-admin')) missing.push('python3-django');
  if (!have('go')) missing.push('golang-go');
  if (!have('php')) missing.push('php-cli');
  if (!have('composer')) missing.push('composer');
  if (!have('hugo')) missing.push('hugo');
  if (!have('jekyll')) missing.push('jekyll');
  if (!have('mkdocs')) missing.push('mkdocs');
  // A Pipfile project installs with pipenv; a Jekyll site's Gemfile with Bundler (gem builds its plugin).
  if (!have('pipenv')) missing.push('pipenv');
  if (!have('bundle') || !have('gem')) missing.push('ruby-bundler');
  // forge ci's JUnit reports are checked against the schema CI servers read, with xmllint.
  if (!have('xmllint')) missing.push('libxml2-utils');
  if (missing.length === 0) return;
  if (canApt) return aptInstall(missing);
  console.error(
    `The tests need: ${missing.join(', ')}. Install them (Debian: sudo apt-get install -y ${missing.join(' ')}) and run npm test again.`,
  );
  process.exit(1);
}

if (mode === 'test') ensureTestTools();

/**
 * better-sqlite3 compiles from source when its prebuilt binary cannot be fetched (GitHub is not
 * always reachable), which takes make, a C++ compiler and Python. As root on a Debian machine they
 * are installed here; elsewhere a failed install names them.
 */
const missingBuildTools = () => ['make', 'g++', 'python3'].filter((cmd) => !have(cmd));
if (canApt && missingBuildTools().length > 0)
  aptInstall(['g++', 'make', 'python3'], 'better-sqlite3 may need compiling');

const [pnpm, pre] = pnpmCommand();
const p = (...args) => [pnpm, [...pre, ...args]];

/**
 * better-sqlite3 is compiled when no prebuilt binary can be fetched (GitHub unreachable), and
 * node-gyp then downloads Node's headers from nodejs.org unless told where they are. A Node
 * installed with its headers (Debian's, the official tarballs: <prefix>/include/node) has them:
 * point node-gyp there, so an install on a fresh HOME needs only the npm registry.
 */
function installEnv() {
  const prefix = dirname(dirname(process.execPath));
  if (process.env.npm_config_nodedir || !existsSync(join(prefix, 'include/node/common.gypi')))
    return process.env;
  return { ...process.env, npm_config_nodedir: prefix };
}

{
  console.error('\n▸ Installing dependencies');
  const code = run(...p('install', '--frozen-lockfile'), { env: installEnv() });
  if (code !== 0) {
    const missing = missingBuildTools();
    if (missing.length > 0)
      console.error(
        `better-sqlite3 compiles from source when its prebuilt binary cannot be downloaded, and this machine has no ${missing.join(', ')}. Install them (Debian: sudo apt-get install -y g++ make python3) and run this again.`,
      );
    console.error(`✗ Installing dependencies failed (exit ${code})`);
    process.exit(code);
  }
}
step('Building Forge', ...p('run', 'build'));

if (mode === 'start') {
  const args = ['packages/cli/bin/forge.js', 'daemon', 'run', ...process.argv.slice(3)];
  process.exit(run(process.execPath, args));
} else if (mode === 'test') {
  const outDir = join(root, 'test-results');
  mkdirSync(outDir, { recursive: true });
  const report = join(outDir, 'vitest.json');
  rmSync(report, { force: true });
  const code = run(process.execPath, [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--config',
    'vitest.workspace.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(3),
  ]);
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    console.log(`\ntests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
    if (r.numTotalTests === 0) {
      console.error('No test ran.');
      process.exit(1);
    }
  }
  process.exit(code);
} else {
  console.error('usage: node scripts/quickstart.mjs start|test');
  process.exit(2);
}
