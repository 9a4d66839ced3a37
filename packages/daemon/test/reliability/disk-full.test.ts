/**
 * Disk full (docs/reliability.md#disk-full): FORGE_HOME on a 24 MB tmpfs, the real daemon in a child process.
 * Every out-of-space error that reaches an answer is a 507 DISK_FULL with what to free; a build that hits it
 * ends `failed` with DISK_FULL (never left `running`); nothing half written is left in projects/ or tmp/; the
 * daemon keeps serving, and the same request succeeds once space is freed.
 *
 * The tmpfs is mounted by the test when it runs as root (CI), else inside a user and mount namespace
 * of the daemon's own (`unshare --user --map-root-user --mount`), where the test reaches its files
 * through /proc/<pid>/root. Without either the suite is skipped, saying why.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { Build, ErrorBody } from '@forge/shared';
import { forgeZip, type ForgedEntry } from '@forge/testing';
import { BuildRun } from '../../src/engine/build-run.ts';
import { createBuildRepo } from '../../src/engine/build-repo.ts';
import { openStore } from '../../src/store/store.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const MIB = 1024 * 1024;
const TMPFS_SIZE = '24m';

type Mode = 'root' | 'userns';

/** How this machine can give the daemon a small file system, or why it cannot. */
function pickMode(): { mode: Mode } | { skip: string } {
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-diskfull-probe-'));
  try {
    // DISK_FULL_TMPFS=userns tries the unprivileged way even as root.
    if (process.getuid?.() === 0 && process.env.DISK_FULL_TMPFS !== 'userns') {
      const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe]);
      if (r.status === 0) {
        spawnSync('umount', [probe]);
        return { mode: 'root' };
      }
    }
    const r = spawnSync('unshare', [
      '--user',
      '--map-root-user',
      '--mount',
      'sh',
      '-c',
      `mount -t tmpfs -o size=1m tmpfs "${probe}"`,
    ]);
    if (r.status === 0) return { mode: 'userns' };
    return {
      skip: `cannot mount a small tmpfs: not root, and unshare --user --map-root-user --mount failed (${r.stderr.toString().trim() || r.error?.message})`,
    };
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

const picked = pickMode();
const skipReason = 'skip' in picked ? picked.skip : null;
if (skipReason) console.warn(`disk-full suite skipped: ${skipReason}`);

interface Daemon {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** FORGE_HOME as this test process reaches it. */
  home: string;
}

let workDir = '';
let mounted: string | null = null;
let daemon: Daemon;

/** Start the daemon with FORGE_HOME on a fresh 24 MB tmpfs. */
async function startDaemon(mode: Mode): Promise<Daemon> {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-diskfull-'));
  const home = path.join(workDir, 'home');
  fs.mkdirSync(home);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('FORGE_') && !key.startsWith('XDG_')) env[key] = value;
  }
  Object.assign(env, { HOME: workDir, FORGE_HOME: home, NO_COLOR: '1' });
  const node = [process.execPath, '--import', TSX, MAIN, 'run', '--port', '0'];
  let child: ChildProcess;
  if (mode === 'root') {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE}`, 'tmpfs', home]);
    mounted = home;
    child = spawn(node[0]!, node.slice(1), { cwd: workDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  } else {
    const script = `mount -t tmpfs -o size=${TMPFS_SIZE} tmpfs "$FORGE_HOME" && exec "$@"`;
    child = spawn('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', script, 'sh', ...node], {
      cwd: workDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const m = /Forge is running at (\S+)\n/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`daemon exited (${code}) before listening:\n${out}`)));
  });
  // In its own mount namespace the tmpfs is only visible through the daemon's root.
  const seen = mode === 'root' ? home : path.join(`/proc/${child.pid}/root`, home);
  return { url, child, output: () => out, home: seen };
}

const alive = () => daemon.child.exitCode === null && daemon.child.signalCode === null;
const freeBytes = () => {
  const s = fs.statfsSync(daemon.home);
  return s.bavail * s.bsize;
};
const ballastPath = () => path.join(daemon.home, 'ballast.bin');

/** Fill the file system until only about `leave` bytes are free (0: completely full). */
function fill(leave: number): void {
  const fd = fs.openSync(ballastPath(), 'a');
  const chunk = Buffer.alloc(256 * 1024, 7);
  try {
    for (;;) {
      const room = freeBytes() - leave;
      if (room <= 0) break;
      fs.writeSync(fd, chunk, 0, Math.min(chunk.length, room));
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
}
const unfill = () => fs.rmSync(ballastPath(), { force: true });

async function upload(name: string, zip: Buffer): Promise<Response> {
  const form = new FormData();
  form.set('file', new Blob([zip]), name);
  return fetch(`${daemon.url}/api/upload`, { method: 'POST', body: form });
}

async function api<T>(route: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const res = await fetch(`${daemon.url}${route}`, {
    ...init,
    headers: init?.body ? { 'content-type': 'application/json' } : {},
  });
  return { status: res.status, body: (await res.json()) as T };
}

const buildsOf = async (project: string) =>
  (await api<Build[]>(`/api/builds?project=${encodeURIComponent(project)}`)).body;

/** The project's latest build, once it has finished (never left running). */
async function finishedBuild(project: string, timeout = 60_000): Promise<Build> {
  let last: Build | undefined;
  await expect
    .poll(
      async () => {
        last = (await buildsOf(project))[0];
        return last?.status;
      },
      { timeout, interval: 100 },
    )
    .toMatch(/^(succeeded|failed|cancelled|timed-out|interrupted)$/);
  return last!;
}

/** Nothing half written: no staging folders, no received uploads, no temp files of atomic saves. */
function leftovers(): string[] {
  const tmp = path.join(daemon.home, 'tmp');
  const names = fs.existsSync(tmp) ? fs.readdirSync(tmp) : [];
  return names.filter((n) => n.startsWith('.extract-') || n.startsWith('upload-'));
}

const expectDiskFull = (status: number, body: ErrorBody) => {
  expect({ status, code: body.code }).toEqual({ status: 507, code: 'DISK_FULL' });
  expect(body.error).toMatch(/disk .* is full/i);
  expect(`${body.error} ${body.hint ?? ''}`).toMatch(/free space/i);
};

const healthy = async () => {
  expect(alive()).toBe(true);
  expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
};

/** `count` files of `size` zero bytes: each under the 1 MiB ratio threshold, so a tiny ZIP. */
const zeroFiles = (count: number, size = MIB - 1): ForgedEntry[] =>
  Array.from({ length: count }, (_, i) => ({ name: `data/blob-${i}.bin`, data: Buffer.alloc(size) }));

const site = (title: string): ForgedEntry[] => [
  { name: 'index.html', data: `<!doctype html><html><body><h1>${title}</h1></body></html>` },
];

describe.skipIf(skipReason !== null)('disk full: FORGE_HOME on a 24 MB tmpfs', () => {
  beforeAll(async () => {
    daemon = await startDaemon((picked as { mode: Mode }).mode);
  }, 60_000);

  afterAll(async () => {
    if (daemon && alive()) {
      const exited = new Promise((resolve) => daemon.child.once('exit', resolve));
      daemon.child.kill('SIGKILL');
      await exited;
    }
    if (mounted) spawnSync('umount', ['-l', mounted]);
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('the reported case: a ZIP that unpacks to 40 MB answers 507 DISK_FULL, its build fails DISK_FULL, nothing is left', async () => {
    const zip = forgeZip([...site('too big'), ...zeroFiles(40)]);
    expect(zip.length).toBeLessThan(2 * MIB);
    const res = await upload('huge-site.zip', zip);
    expectDiskFull(res.status, (await res.json()) as ErrorBody);
    const build = await finishedBuild('huge-site');
    expect(build.status).toBe('failed');
    expect(build.error?.code).toBe('DISK_FULL');
    expect(build.error?.message).toMatch(/free space/i);
    expect(fs.existsSync(path.join(daemon.home, 'projects', 'huge-site'))).toBe(false);
    expect(leftovers()).toEqual([]);
    await healthy();
  });

  it('receiving the upload: 507, no upload file left; after freeing space the same upload succeeds', async () => {
    fill(4 * MIB);
    // Stored (not deflated) random bytes: the archive itself is bigger than the space left.
    const zip = forgeZip([
      ...site('big upload'),
      { name: 'noise.bin', data: crypto.randomBytes(8 * MIB), method: 0 },
    ]);
    const res = await upload('big-upload.zip', zip);
    expectDiskFull(res.status, (await res.json()) as ErrorBody);
    const build = await finishedBuild('big-upload');
    expect([build.status, build.error?.code]).toEqual(['failed', 'DISK_FULL']);
    expect(fs.existsSync(path.join(daemon.home, 'projects', 'big-upload'))).toBe(false);
    expect(leftovers()).toEqual([]);
    await healthy();

    unfill();
    const again = await upload('big-upload.zip', zip);
    expect(again.status).toBe(200);
    expect((await finishedBuild('big-upload')).status).toBe('succeeded');
  });

  it('extraction: 507, no staging and no half project; after freeing space the same upload succeeds', async () => {
    fill(6 * MIB);
    const zip = forgeZip([...site('unpacks big'), ...zeroFiles(10)]);
    const res = await upload('unpacks-big.zip', zip);
    expectDiskFull(res.status, (await res.json()) as ErrorBody);
    const build = await finishedBuild('unpacks-big');
    expect([build.status, build.error?.code]).toEqual(['failed', 'DISK_FULL']);
    expect(fs.existsSync(path.join(daemon.home, 'projects', 'unpacks-big'))).toBe(false);
    expect(leftovers()).toEqual([]);
    await healthy();

    unfill();
    const again = await upload('unpacks-big.zip', zip);
    expect(again.status).toBe(200);
    expect((await finishedBuild('unpacks-big')).status).toBe('succeeded');
  });

  it('saving and creating files: 507, the old content kept whole, no partial or temp file left', async () => {
    const project = 'unpacks-big';
    const dir = path.join(daemon.home, 'projects', project);
    const before = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    const namesBefore = fs.readdirSync(dir).sort();
    fill(0);
    const big = 'x'.repeat(2 * MIB);
    const save = await api<ErrorBody>('/api/files/save', {
      method: 'POST',
      body: JSON.stringify({ path: 'index.html', content: big, project }),
    });
    expectDiskFull(save.status, save.body);
    const create = await api<ErrorBody>('/api/files/create', {
      method: 'POST',
      body: JSON.stringify({ path: 'new-page.html', content: big, project }),
    });
    expectDiskFull(create.status, create.body);
    expect(fs.readFileSync(path.join(dir, 'index.html'), 'utf8')).toBe(before);
    expect(fs.readdirSync(dir).sort()).toEqual(namesBefore);
    await healthy();
    unfill();
    const ok = await api<{ ok: boolean }>('/api/files/save', {
      method: 'POST',
      body: JSON.stringify({ path: 'index.html', content: big, project }),
    });
    expect(ok.status).toBe(200);
  });

  it('store writes (SQLITE_FULL): a request that must write answers 507, the daemon keeps serving', async () => {
    fill(0);
    const settings = await api<ErrorBody>('/api/settings', {
      method: 'POST',
      body: JSON.stringify({ maxConcurrentBots: 3 }),
    });
    const start = await api<ErrorBody>('/api/builds', {
      method: 'POST',
      body: JSON.stringify({ projectName: 'unpacks-big' }),
    });
    unfill();
    expectDiskFull(settings.status, settings.body);
    expectDiskFull(start.status, start.body);
    await healthy();
    expect((await buildsOf('unpacks-big')).every((b) => b.status !== 'running')).toBe(true);
  });

  it('build output: a build that writes until the disk is full fails DISK_FULL, its partial output removed', async () => {
    const zip = forgeZip([
      {
        name: 'package.json',
        data: JSON.stringify({ name: 'filler', private: true, scripts: { build: 'node build.js' } }),
      },
      {
        name: 'build.js',
        data: `const fs = require('fs');
fs.mkdirSync('dist', { recursive: true });
const chunk = Buffer.alloc(1024 * 1024, 1);
for (let i = 0; ; i++) { fs.writeFileSync('dist/part-' + i + '.bin', chunk); if (i % 4 === 0) console.log('wrote', i + 1, 'MB'); }`,
      },
    ]);
    const room = freeBytes();
    const res = await upload('filler.zip', zip);
    expect(res.status).toBe(200);
    const build = await finishedBuild('filler');
    expect([build.status, build.error?.code]).toEqual(['failed', 'DISK_FULL']);
    expect(build.error?.message).toMatch(/free space/i);
    expect(fs.existsSync(path.join(daemon.home, 'projects', 'filler', 'dist'))).toBe(false);
    // The space it took is given back (removed in the background).
    await expect.poll(freeBytes, { timeout: 20_000 }).toBeGreaterThan(room - MIB);
    await healthy();
  });

  it('install: an install that writes until the disk is full fails DISK_FULL, its node_modules removed', async () => {
    const pkg = {
      name: 'install-filler',
      version: '1.0.0',
      private: true,
      // A local dependency: something to install without the network (npm ci, offline).
      dependencies: { 'filler-dep': 'file:dep' },
      scripts: { preinstall: 'node fill.js', build: 'node -e "0"' },
    };
    const lock = {
      name: pkg.name,
      version: pkg.version,
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { ...pkg, scripts: undefined, hasInstallScript: true },
        dep: { name: 'filler-dep', version: '1.0.0' },
        'node_modules/filler-dep': { resolved: 'dep', link: true },
      },
    };
    const zip = forgeZip([
      { name: 'package.json', data: JSON.stringify(pkg) },
      { name: 'package-lock.json', data: JSON.stringify(lock) },
      { name: 'dep/package.json', data: JSON.stringify({ name: 'filler-dep', version: '1.0.0' }) },
      {
        name: 'fill.js',
        data: `const fs = require('fs');
fs.mkdirSync('node_modules/.cache', { recursive: true });
const chunk = Buffer.alloc(1024 * 1024, 1);
for (let i = 0; ; i++) fs.writeFileSync('node_modules/.cache/part-' + i + '.bin', chunk);`,
      },
    ]);
    const room = freeBytes();
    const res = await upload('install-filler.zip', zip);
    expect(res.status).toBe(200);
    const build = await finishedBuild('install-filler', 90_000);
    expect([build.status, build.error?.code]).toEqual(['failed', 'DISK_FULL']);
    expect(build.steps.find((s) => s.name === 'install')?.status).toBe('failed');
    expect(fs.existsSync(path.join(daemon.home, 'projects', 'install-filler', 'node_modules'))).toBe(false);
    await expect.poll(freeBytes, { timeout: 20_000 }).toBeGreaterThan(room - MIB);
    await healthy();
  });
});

describe('disk full: a build whose end cannot be stored (real SQLITE_FULL)', () => {
  it('ends anyway (never left running), and its end is stored once there is room again', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-sqlite-full-'));
    const store = openStore(path.join(dir, 'forge.db'));
    try {
      const repo = createBuildRepo(store);
      const run = new BuildRun(
        { repo, broadcast: () => {}, logger: pino({ level: 'silent' }) },
        repo.createBuild('full-db', { noCache: false, now: new Date() }),
      );
      run.to({ status: 'running', stage: 'bot-assignment' });
      // SQLite's own ceiling on the file: past it every write needing a page fails with SQLITE_FULL.
      const pages = store.db.pragma('page_count', { simple: true }) as number;
      store.db.pragma(`max_page_count = ${pages}`);
      const row = (seq: number) => ({
        seq: 1000 + seq,
        ts: new Date().toISOString(),
        level: 'info' as const,
        botName: 'X',
        message: 'x'.repeat(200),
      });
      let full: unknown = null;
      for (let i = 0; i < 10_000 && !full; i++) {
        try {
          repo.appendLogs(run.id, [row(i)]);
        } catch (err) {
          full = err;
        }
      }
      expect((full as { code?: string }).code).toBe('SQLITE_FULL');

      // An end that needs new pages (its last output lines), as a failed build's does.
      const lines = Array.from({ length: 100 }, (_, i) => `line ${i} `.repeat(20));
      let stored = false;
      void run.stored.then(() => (stored = true));
      run.log('BuildBot', 'error', 'x'.repeat(4000));
      expect(() =>
        run.end('failed', { error: { code: 'DISK_FULL', message: 'full', tail: lines } }),
      ).not.toThrow();
      expect(run.finished).toBe(true);
      expect((await run.done).status).toBe('failed');
      expect(stored).toBe(false);
      expect(repo.get(run.id)?.status).toBe('running');

      store.db.pragma('max_page_count = 1073741823');
      await run.stored;
      expect(repo.get(run.id)).toMatchObject({ status: 'failed', error: { code: 'DISK_FULL' } });
    } finally {
      store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
