import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../exec/index.ts';
import type { ToolRunner } from './fetch-tool.ts';
import { findInstalled, MARKER_FILE, toolchainDirName } from './installed.ts';
import { provisionToolchain, type ProvisionedToolchain } from './provision.ts';
import { ToolchainError } from './toolchain-error.ts';
import { withToolLock } from './tool-lock.ts';

// Real npm against the real registry: no fake of npm anywhere. pnpm is fetched once for the file.

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
  return { run, calls, npmRuns: () => calls.filter((argv) => argv[0] === 'npm').length };
}

const pnpm10 = { tool: 'pnpm', package: 'pnpm', request: '10' } as const;

describe('provisioning a package manager', () => {
  let toolchainsDir: string;
  let first: ProvisionedToolchain;
  let firstNpmRuns: number;

  beforeAll(async () => {
    toolchainsDir = path.join(tempDir('forge-toolchains-'), 'toolchains');
    const r = runner();
    // Two builds asking at once: one fetch, both get it.
    const [a, b] = await Promise.all([
      provisionToolchain(pnpm10, { toolchainsDir, run: r.run, timeoutMs: 120_000 }),
      provisionToolchain(pnpm10, { toolchainsDir, run: r.run, timeoutMs: 120_000 }),
    ]);
    expect(b.dir).toBe(a.dir);
    first = a;
    firstNpmRuns = r.npmRuns();
  }, 180_000);

  it('fetches the newest release of the major into toolchains/<package>@<version>, once', () => {
    expect(firstNpmRuns).toBe(1);
    expect(first.version).toMatch(/^10\.\d+\.\d+$/);
    expect(first.dir).toBe(path.join(toolchainsDir, `pnpm@${first.version}`));
    expect(first.binDir).toBe(path.join(first.dir, 'bin'));
    expect(fs.readdirSync(first.binDir).sort()).toEqual(['pnpm', 'pnpx']);
    const marker = JSON.parse(fs.readFileSync(path.join(first.dir, MARKER_FILE), 'utf8')) as {
      integrity: string;
    };
    expect(marker.integrity).toMatch(/^sha512-/);
    // Nothing half-done is left behind.
    expect(fs.readdirSync(path.join(toolchainsDir, '.staging'))).toEqual([]);
    expect(fs.readdirSync(path.join(toolchainsDir, '.locks'))).toEqual([]);
  });

  it('puts a command on PATH that runs, inside the sandbox too', async () => {
    expect(execFileSync(path.join(first.binDir, 'pnpm'), ['--version'], { encoding: 'utf8' }).trim()).toBe(
      first.version,
    );
    const out: string[] = [];
    const result = await runCommand({
      argv: ['pnpm', '--version'],
      cwd: tempDir('forge-cwd-'),
      env: { PATH: `${first.binDir}${path.delimiter}${process.env.PATH}` },
      timeoutMs: 30_000,
      sandbox: true,
      onLine: (line) => out.push(line.text),
    });
    expect(result.outcome).toBe('succeeded');
    expect(out).toContain(first.version);
  });

  it('reuses it offline: the same major, then the exact version, never spawn npm', async () => {
    const offline = runner({ npm_config_registry: UNREACHABLE });
    const again = await provisionToolchain(pnpm10, { toolchainsDir, run: offline.run, timeoutMs: 30_000 });
    expect(again).toMatchObject({ dir: first.dir, version: first.version, fetched: false });
    const exact = await provisionToolchain(
      { ...pnpm10, request: first.version },
      { toolchainsDir, run: offline.run, timeoutMs: 30_000 },
    );
    expect(exact).toMatchObject({ dir: first.dir, fetched: false });
    expect(offline.calls).toEqual([]);
  });

  it('checks a Corepack sha512 hash against the tarball npm fetched', async () => {
    const marker = JSON.parse(fs.readFileSync(path.join(first.dir, MARKER_FILE), 'utf8')) as {
      integrity: string;
    };
    const hex = Buffer.from(marker.integrity.slice('sha512-'.length), 'base64').toString('hex');
    const offline = runner({ npm_config_registry: UNREACHABLE });
    const opts = { toolchainsDir, run: offline.run, timeoutMs: 30_000 };
    const request = { ...pnpm10, request: first.version };
    await expect(
      provisionToolchain({ ...request, hash: { algorithm: 'sha512', hex } }, opts),
    ).resolves.toMatchObject({ version: first.version });
    const wrong = `0${hex.slice(1)}` === hex ? `1${hex.slice(1)}` : `0${hex.slice(1)}`;
    await expect(
      provisionToolchain({ ...request, hash: { algorithm: 'sha512', hex: wrong } }, opts),
    ).rejects.toThrow(/does not match the sha512 hash in "packageManager"/);
  });

  it('fails with TOOLCHAIN_UNAVAILABLE saying what it tried when the registry cannot be reached', async () => {
    const empty = path.join(tempDir('forge-toolchains-'), 'toolchains');
    const offline = runner({ npm_config_registry: UNREACHABLE });
    const err = await provisionToolchain(
      { ...pnpm10, request: '10.20.0' },
      {
        toolchainsDir: empty,
        run: offline.run,
        timeoutMs: 60_000,
        env: { npm_config_registry: UNREACHABLE },
      },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolchainError);
    expect(err).toMatchObject({ code: 'TOOLCHAIN_UNAVAILABLE' });
    expect((err as Error).message).toMatch(
      /^Could not fetch pnpm@10\.20\.0 from http:\/\/127\.0\.0\.1:9\/: .*ECONNREFUSED/,
    );
    expect(offline.npmRuns()).toBe(1);
    // No toolchain folder, no staging left: the next build tries again from a clean state.
    expect(fs.readdirSync(empty).sort()).toEqual(['.locks', '.staging']);
    expect(fs.readdirSync(path.join(empty, '.staging'))).toEqual([]);
  }, 60_000);

  it('refuses a request that is not a version before touching the disk or the network', async () => {
    const r = runner();
    await expect(
      provisionToolchain({ ...pnpm10, request: '../../etc' }, { toolchainsDir, run: r.run, timeoutMs: 1000 }),
    ).rejects.toMatchObject({ code: 'TOOLCHAIN_UNAVAILABLE' });
    expect(r.calls).toEqual([]);
  });
});

describe('installed toolchains', () => {
  const install = (root: string, pkg: string, version: string, marker = true) => {
    const dir = path.join(root, toolchainDirName(pkg, version));
    fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
    if (marker) {
      fs.writeFileSync(
        path.join(dir, MARKER_FILE),
        JSON.stringify({ package: pkg, version, integrity: null, fetchedAt: '' }),
      );
    }
  };

  it('satisfy a major with its newest complete release, never a pre-release or another major', async () => {
    const root = tempDir('forge-installed-');
    install(root, 'pnpm', '10.2.0');
    install(root, 'pnpm', '10.11.1');
    install(root, 'pnpm', '10.12.0', false); // no marker: a folder that never finished
    install(root, 'pnpm', '10.13.0-rc.1');
    install(root, 'pnpm', '11.0.0');
    install(root, '@yarnpkg/cli-dist', '4.1.0');
    expect((await findInstalled(root, 'pnpm', '10'))?.marker.version).toBe('10.11.1');
    expect((await findInstalled(root, 'pnpm', '10.13.0-rc.1'))?.marker.version).toBe('10.13.0-rc.1');
    expect(await findInstalled(root, 'pnpm', '10.12.0')).toBeNull();
    expect(await findInstalled(root, 'pnpm', '9')).toBeNull();
    expect((await findInstalled(root, '@yarnpkg/cli-dist', '4'))?.dir).toBe(
      path.join(root, '@yarnpkg+cli-dist@4.1.0'),
    );
  });
});

describe('the tool lock', () => {
  it('runs one holder at a time and takes over a lock left by a process that is gone', async () => {
    const locks = tempDir('forge-locks-');
    // A lock folder whose owner no longer exists (pid far above pid_max).
    fs.mkdirSync(path.join(locks, 'pnpm.lock'));
    fs.writeFileSync(path.join(locks, 'pnpm.lock', 'pid'), '4194999');
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const a = withToolLock(locks, 'pnpm', async () => {
      order.push('a in');
      await firstHeld;
      order.push('a out');
    });
    const b = withToolLock(locks, 'pnpm', async () => {
      order.push('b in');
    });
    await expect.poll(() => order).toEqual(['a in']);
    releaseFirst();
    await Promise.all([a, b]);
    expect(order).toEqual(['a in', 'a out', 'b in']);
    expect(fs.readdirSync(locks)).toEqual([]);
  });

  it('stops waiting when the build is cancelled', async () => {
    const locks = tempDir('forge-locks-');
    let release!: () => void;
    const held = withToolLock(locks, 'bun', () => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    const waiting = withToolLock(locks, 'bun', async () => 'ran', controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    await expect.poll(() => typeof release).toBe('function');
    release();
    await held;
  });
});
