import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blueprint, Build, CliBuildResult } from '@forge/shared';
import type { ProjectFiles } from '@forge/testing';
import { tempDir } from '../helpers.ts';
import { makeZip } from '../build-helpers.ts';
import { nodePackage } from '../../src/capabilities/toolchains/node.ts';
import { RealDaemon, json } from './harness.ts';

/**
 * The Node a project asks for, provided by a real daemon from the real npm registry: projects that
 * need another major than this machine's (engines.node, .nvmrc, a package manager that needs a newer
 * Node, an older Node whose npm is not the machine's) are built and previewed on it, three builds
 * that need the same Node at once fetch it once, a second build pays nothing, and a Node that is not
 * published fails with TOOLCHAIN_UNAVAILABLE. Two Node releases are fetched in this file: the newest
 * 22 and the newest 18 (~50 MB each; npm's cache keeps them for the next run).
 */

const BUILD_TIMEOUT_MS = 300_000;
const TEST_TIMEOUT_MS = BUILD_TIMEOUT_MS + 30_000;
const PLATFORM = nodePackage();
/** pnpm 11 needs Node >= 22.13: a release that exists (npm view pnpm@11 version). */
const PNPM_11 = '11.28.10';

/** A page that says which Node (and which package manager) built it: written by the build itself. */
const BUILD_PAGE = `import fs from 'node:fs';
fs.mkdirSync('dist', { recursive: true });
const agent = process.env.npm_config_user_agent ?? '';
fs.writeFileSync('dist/index.html', \`<!doctype html><title>built</title><h1>Built on Node \${process.version}</h1><p id="agent">\${agent}</p>\\n\`);
`;

/** engines.node ">=22", a dependency and no lockfile (the shared store's install), a test run on that Node. */
const site22 = (extra: ProjectFiles = {}): ProjectFiles => ({
  'package.json': json({
    name: 'site-22',
    private: true,
    version: '1.0.0',
    type: 'module',
    engines: { node: '>=22' },
    scripts: { build: 'node build.mjs', test: 'node --test' },
    dependencies: { 'is-number': '7.0.0' },
  }),
  'build.mjs': `import isNumber from 'is-number';\nif (!isNumber(22)) process.exit(1);\n${BUILD_PAGE}`,
  'test/node.test.mjs':
    "import test from 'node:test';\nimport assert from 'node:assert';\ntest('runs on Node 22', () => assert.strictEqual(process.versions.node.split('.')[0], '22'));\n",
  ...extra,
});

/** A server app pinned by .nvmrc: its start serves the Node it runs on. */
const server22: ProjectFiles = {
  'package.json': json({
    name: 'api-22',
    private: true,
    version: '1.0.0',
    scripts: { start: 'node server.js' },
  }),
  '.nvmrc': '22\n',
  'server.js':
    "require('http').createServer((req, res) => { res.setHeader('content-type', 'text/html'); res.end(`<h1>Served by Node ${process.version}</h1>`); }).listen(Number(process.env.PORT), process.env.HOST);\n",
};

/** pnpm 11 named by packageManager: the project says nothing of Node, its package manager needs 22.13. */
const pnpm11: ProjectFiles = {
  'package.json': json({
    name: 'pnpm-eleven',
    private: true,
    version: '1.0.0',
    type: 'module',
    packageManager: `pnpm@${PNPM_11}`,
    scripts: { build: 'node build.mjs' },
  }),
  'build.mjs': BUILD_PAGE,
};

/** engines.node "18.x" with npm and a lockfile: npm ci on Node 18, whose npm is not this machine's 11. */
const legacy18 = (): ProjectFiles => {
  const files: ProjectFiles = {
    'package.json': json({
      name: 'legacy-18',
      private: true,
      version: '1.0.0',
      engines: { node: '18.x' },
      scripts: { build: 'node build.js' },
      dependencies: { 'is-number': '7.0.0' },
    }),
    'build.js': `require('is-number');\n${BUILD_PAGE.replace("import fs from 'node:fs';", "const fs = require('fs');")}`,
  };
  const dir = tempDir('forge-node-lock-');
  fs.writeFileSync(path.join(dir, 'package.json'), files['package.json'] as string);
  const npm = spawnSync(
    'npm',
    ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  if (npm.status !== 0) throw new Error(`npm could not write the lockfile: ${npm.stderr}`);
  return { ...files, 'package-lock.json': fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8') };
};

/** Asks for a Node no one has published. */
const future: ProjectFiles = {
  'package.json': json({
    name: 'from-the-future',
    private: true,
    engines: { node: '>=99' },
    scripts: { build: 'node -e "1"' },
  }),
};

type Name = 'site22' | 'pnpm11' | 'legacy18';

let daemon: RealDaemon;
const builds = {} as Record<Name, Promise<Build>>;
/** `forge upload … --wait --json` of the server app and of the project from the future. */
const cli = {} as Record<'server22' | 'future', Promise<{ code: number | null; result: CliBuildResult }>>;

/** The built CLI as a CI job runs it, to its end: exit code and its --json result. */
async function forge(args: string[]): Promise<{ code: number | null; result: CliBuildResult }> {
  const { code, stdout, stderr } = await daemon.forge([...args, '--json'], { CI: 'true' });
  try {
    return { code, result: JSON.parse(stdout) as CliBuildResult };
  } catch {
    throw new Error(`forge ${args.join(' ')} exited ${code} without a JSON result:\n${stdout}\n${stderr}`);
  }
}

const start = (zipName: string, files: ProjectFiles): Promise<Build> => daemon.build(zipName, files);

beforeAll(async () => {
  daemon = await RealDaemon.start('node', { buildTimeoutMs: BUILD_TIMEOUT_MS });
  // Three builds that need Node 22 at once (engines.node, .nvmrc, pnpm 11's own need), one that
  // needs 18, one that cannot be had.
  builds.site22 = start('site-22.zip', site22());
  cli.server22 = forge(['upload', makeZip('api-22.zip', server22), '--wait']);
  builds.pnpm11 = start('pnpm-eleven.zip', pnpm11);
  builds.legacy18 = start('legacy-18.zip', legacy18());
  cli.future = forge(['upload', makeZip('from-the-future.zip', future), '--wait']);
  for (const p of Object.values(cli)) p.catch(() => undefined);
}, 120_000);

afterAll(() => daemon.stop(), 120_000);

const logLines = (buildId: string) => daemon.messages(buildId);
const record = (buildId: string) => daemon.record(buildId);
const succeeded = (build: Build | Promise<Build>) => daemon.ended(build);

async function page(url: string | null): Promise<string> {
  expect(url).toBeTruthy();
  const res = await fetch(url!);
  expect(res.status).toBe(200);
  return res.text();
}

/** The Node folders in FORGE_HOME/toolchains. */
const nodeFolders = (): string[] =>
  fs
    .readdirSync(path.join(daemon.home, 'toolchains'))
    .filter((name) => name.startsWith(`${PLATFORM}@`))
    .sort();

const toolchainStep = (b: Build) => b.steps.find((s) => s.name === 'toolchain');
const nodeOf = (bp: Blueprint | null) => bp?.node ?? null;

describe.runIf(PLATFORM !== null)('the Node a project asks for', { timeout: TEST_TIMEOUT_MS }, () => {
  it('engines.node >=22: planned with its evidence, built, tested and previewed on the newest Node 22', async () => {
    const build = await succeeded(builds.site22);
    const bp = build.blueprint!;
    expect(bp.decisions).toContainEqual({
      field: 'node',
      value: `>=22 (this machine: ${process.versions.node})`,
      file: 'package.json',
      rule: expect.stringMatching(
        /^Not satisfied by this machine's Node .*: engines\.node in package\.json asks for Node >=22;/,
      ),
    });
    const node = nodeOf(bp)!;
    expect(node).toMatchObject({ wanted: '>=22', file: 'package.json', satisfied: false, range: '>=22.0.0' });
    // No lockfile: Forge's store installs it with pnpm 10, whose own need (>=18.12) the constraint meets.
    expect(node.candidates).toEqual([
      expect.objectContaining({ source: 'engines.node', value: '>=22', used: true }),
      expect.objectContaining({
        source: expect.stringMatching(/^pnpm 10\.\d+\.\d+$/),
        role: 'tool',
        value: '>=18.12',
        used: true,
      }),
    ]);
    expect(node.resolved).toMatchObject({
      source: expect.stringMatching(/^(fetched|toolchains)$/),
      package: PLATFORM,
    });
    const version = node.resolved!.version;
    expect(semver.major(version)).toBe(22);
    // The three builds of the next test start with this one: when another of them fetched Node 22
    // before this one planned, it takes that release from toolchains/ instead of asking the registry.
    expect([
      'newest release of Node 22, the lowest even (LTS) major it admits',
      'the newest in toolchains/ that satisfies >=22.0.0',
    ]).toContain(node.resolved!.rule);
    expect(toolchainStep(build)!.detail).toMatch(
      new RegExp(
        `^node ${version.replace(/\./g, '\\.')} \\(engines\\.node >=22, (fetched in \\S+|from toolchains/)\\)`,
      ),
    );
    // The build ran on it (its page says so), and so did the tests.
    expect(await page(build.previewUrl)).toContain(`<h1>Built on Node v${version}</h1>`);
    expect(build.test).toMatchObject({ ran: true, passed: true });
  });

  it('three projects that need the same Node at once: one fetch, the others reuse it', async () => {
    const [site, pnpm, server] = await Promise.all([
      succeeded(builds.site22),
      succeeded(builds.pnpm11),
      cli.server22,
    ]);
    expect(server.code).toBe(0);
    const serverBuild = await succeeded(record(server.result.buildId));
    const ids = [site.id, pnpm.id, serverBuild.id];
    const versions = await Promise.all(
      ids.map(async (id) => nodeOf((await record(id)).blueprint)?.resolved?.version),
    );
    expect(new Set(versions).size).toBe(1);
    const logs = (await Promise.all(ids.map(logLines))).flat();
    expect(logs.filter((l) => l.startsWith(`Fetching ${PLATFORM}@`))).toEqual([
      `Fetching ${PLATFORM}@${versions[0]} from https://registry.npmjs.org/ into Forge's toolchains…`,
    ]);
    expect(nodeFolders().filter((f) => f.includes('@22.'))).toEqual([`${PLATFORM}@${versions[0]}`]);
  });

  it('.nvmrc 22 on a server app: started on Node 22 through the CLI, exit code 0', async () => {
    const { code, result } = await cli.server22;
    expect(code).toBe(0);
    expect(result.status).toBe('succeeded');
    const build = await record(result.buildId);
    expect(nodeOf(build.blueprint)).toMatchObject({
      wanted: '22',
      file: '.nvmrc',
      range: '>=22.0.0 <23.0.0-0',
    });
    expect(await page(result.previewUrl)).toBe(
      `<h1>Served by Node v${nodeOf(build.blueprint)!.resolved!.version}</h1>`,
    );
  });

  it('pnpm 11 (packageManager) needs Node >=22.13: the build runs pnpm 11 on Node 22', async () => {
    const build = await succeeded(builds.pnpm11);
    const node = nodeOf(build.blueprint)!;
    expect(node.candidates).toEqual([
      expect.objectContaining({ source: `pnpm ${PNPM_11}`, role: 'tool', value: '>=22.13', used: true }),
    ]);
    expect(build.blueprint!.toolchain).toMatchObject({ tool: 'pnpm', version: PNPM_11 });
    const html = await page(build.previewUrl);
    expect(html).toContain(`<h1>Built on Node v${node.resolved!.version}</h1>`);
    expect(html).toMatch(new RegExp(`pnpm/${PNPM_11.replace(/\./g, '\\.')} .*node/v22\\.`));
  });

  it('engines.node 18.x with npm: Node 18 and an npm that runs on it (npm 10)', async () => {
    const build = await succeeded(builds.legacy18);
    const node = nodeOf(build.blueprint)!;
    expect(semver.major(node.resolved!.version)).toBe(18);
    expect(toolchainStep(build)!.detail).toMatch(
      /, with npm 10\.\d+\.\d+ .*this machine's npm does not run on Node 18\./,
    );
    expect(build.steps.find((s) => s.name === 'install')?.detail).toMatch(/^npm ci/);
    const html = await page(build.previewUrl);
    expect(html).toContain(`<h1>Built on Node v${node.resolved!.version}</h1>`);
    expect(html).toMatch(/npm\/10\.\d+\.\d+ node\/v18\./);
    expect(nodeFolders().filter((f) => f.includes('@18.'))).toEqual([
      `${PLATFORM}@${node.resolved!.version}`,
    ]);
  });

  it('>=99 fails with TOOLCHAIN_UNAVAILABLE and the reason, through the CLI (exit code 1)', async () => {
    const { code, result } = await cli.future;
    expect(code).toBe(1);
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ code: 'TOOLCHAIN_UNAVAILABLE' });
    expect(result.error!.message).toMatch(
      new RegExp(
        `^No Node release satisfies engines\\.node >=99: ${PLATFORM} on \\S+ publishes none \\(its newest is \\d+\\.\\d+\\.\\d+\\), and this machine runs Node `,
      ),
    );
    expect(result.diagnosis).toMatchObject({ code: 'NODE_VERSION_MISMATCH', file: 'package.json' });
    expect(result.diagnosis!.suggestion).toMatch(/^Ask for a Node that is released/);
    // Forge did not blame this machine's Node: it said what it could not have.
    expect(result.error!.probableCause).toBeUndefined();
  });

  it('a second build of a project asking for that Node pays nothing: no fetch, the step cached', async () => {
    await succeeded(builds.site22);
    const before = nodeFolders();
    const again = await succeeded(start('site-22.zip', site22({ 'README.md': '# again\n' })));
    const step = toolchainStep(again)!;
    expect(step.status).toBe('cached');
    expect(step.detail).toMatch(/^node 22\.\d+\.\d+ \(engines\.node >=22, from toolchains\/\)/);
    expect(
      (await logLines(again.id)).some((l) => l.startsWith('Fetching') || l.startsWith('$ npm view')),
    ).toBe(false);
    expect(nodeFolders()).toEqual(before);
    expect(await page(again.previewUrl)).toContain(
      `Built on Node v${nodeOf(again.blueprint)!.resolved!.version}`,
    );
  });
});
