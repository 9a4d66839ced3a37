/**
 * Disk full, long version (docs/reliability.md): the real daemon with FORGE_HOME on a 24 MB tmpfs, many
 * rounds of the reported case — a ZIP that unpacks to 40 MB, an upload bigger than the space left, an
 * extraction that runs out — each answered 507 DISK_FULL with its build `failed`/DISK_FULL, nothing left in
 * projects/ or tmp/, and the same upload succeeding once space is freed. Root mounts the tmpfs itself;
 * otherwise it runs in `unshare --user --map-root-user --mount`. Prints one report-card row; exits 1 on any
 * violation. Run: node --import tsx packages/daemon/bench/reliability/disk-full.ts [rounds] (the CI version:
 * test/reliability/disk-full.test.ts).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { forgeZip, type ForgedEntry } from '@forge/testing';

const rounds = Number(process.argv[2] ?? 20);
const MIB = 1024 * 1024;
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-diskfull-bench-'));
const home = path.join(work, 'home');
fs.mkdirSync(home);
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env))
  if (v !== undefined && !k.startsWith('FORGE_') && !k.startsWith('XDG_')) env[k] = v;
Object.assign(env, { HOME: work, FORGE_HOME: home, NO_COLOR: '1' });
const node = [process.execPath, '--import', TSX, MAIN, 'run', '--port', '0'];
const root = process.getuid?.() === 0;
if (root) execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', home]);
const child = root
  ? spawn(node[0]!, node.slice(1), { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] })
  : spawn(
      'unshare',
      [
        '--user',
        '--map-root-user',
        '--mount',
        'sh',
        '-c',
        'mount -t tmpfs -o size=24m tmpfs "$FORGE_HOME" && exec "$@"',
        'sh',
        ...node,
      ],
      { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
let out = '';
child.stdout.on('data', (c: Buffer) => (out += c.toString()));
child.stderr.on('data', (c: Buffer) => (out += c.toString()));
const cleanup = () => {
  if (child.exitCode === null) child.kill('SIGKILL');
  if (root) spawnSync('umount', ['-l', home]);
  fs.rmSync(work, { recursive: true, force: true });
};
process.on('exit', cleanup);

const url = await new Promise<string>((resolve, reject) => {
  child.stdout.on('data', () => {
    const m = /Forge is running at (\S+)\n/.exec(out);
    if (m) resolve(m[1]!);
  });
  child.once('exit', (code) => reject(new Error(`daemon exited (${code}):\n${out}`)));
});
const seen = root ? home : path.join(`/proc/${child.pid}/root`, home);
const free = () => {
  const s = fs.statfsSync(seen);
  return s.bavail * s.bsize;
};
const ballast = path.join(seen, 'ballast.bin');
function fill(leave: number): void {
  const fd = fs.openSync(ballast, 'a');
  try {
    for (let room = free() - leave; room > 0; room = free() - leave)
      fs.writeSync(fd, Buffer.alloc(Math.min(room, 256 * 1024), 7));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
}
const zeros = (n: number): ForgedEntry[] =>
  Array.from({ length: n }, (_, i) => ({ name: `data/blob-${i}.bin`, data: Buffer.alloc(MIB - 1) }));
const index: ForgedEntry = { name: 'index.html', data: '<!doctype html><h1>hi</h1>' };
const cases = [
  { name: 'forty-mb.zip', zip: forgeZip([index, ...zeros(40)]), leave: null, retry: false },
  {
    name: 'big-upload.zip',
    zip: forgeZip([index, { name: 'n.bin', data: crypto.randomBytes(3 * MIB), method: 0 }]),
    leave: 1.5 * MIB,
    retry: true,
  },
  { name: 'unpacks-big.zip', zip: forgeZip([index, ...zeros(6)]), leave: 3 * MIB, retry: true },
];

async function upload(name: string, zip: Buffer): Promise<number> {
  const form = new FormData();
  form.set('file', new Blob([zip]), name);
  return (await fetch(`${url}/api/upload`, { method: 'POST', body: form })).status;
}
const project = (name: string) => name.replace(/\.zip$/, '');
async function latest(name: string): Promise<{ status: string; error?: { code: string } }> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const [b] = (await (await fetch(`${url}/api/builds?project=${project(name)}&limit=1`)).json()) as Array<{
      status: string;
      error?: { code: string };
    }>;
    if (b && b.status !== 'running' && b.status !== 'queued') return b;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { status: 'running' };
}

const violations: string[] = [];
let answered507 = 0;
let failedDiskFull = 0;
let recovered = 0;
const started = Date.now();
for (let round = 1; round <= rounds; round++) {
  for (const c of cases) {
    if (c.leave !== null) fill(c.leave);
    const status = await upload(c.name, c.zip);
    const build = await latest(c.name);
    if (status === 507) answered507++;
    else violations.push(`round ${round} ${c.name}: answered ${status}`);
    if (build.status === 'failed' && build.error?.code === 'DISK_FULL') failedDiskFull++;
    else violations.push(`round ${round} ${c.name}: build ${build.status} ${build.error?.code ?? ''}`);
    const tmp = path.join(seen, 'tmp');
    const left = fs.existsSync(tmp) ? fs.readdirSync(tmp).filter((n) => /^(\.extract-|upload-)/.test(n)) : [];
    if (left.length) violations.push(`round ${round} ${c.name}: left in tmp/ ${left.join(', ')}`);
    if (!c.retry && fs.existsSync(path.join(seen, 'projects', project(c.name))))
      violations.push(`round ${round} ${c.name}: half project left`);
    fs.rmSync(ballast, { force: true });
    if ((await fetch(`${url}/api/health`)).status !== 200) violations.push(`round ${round}: health failed`);
    if (c.retry) {
      const again = await upload(c.name, c.zip);
      const b = await latest(c.name);
      if (again === 200 && b.status === 'succeeded') recovered++;
      else violations.push(`round ${round} ${c.name}: after freeing space ${again} ${b.status}`);
    }
  }
}
if (process.env.DISK_FULL_DU) console.log(execFileSync('du', ['-a', '-d', '3', seen]).toString());
const seconds = ((Date.now() - started) / 1000).toFixed(0);
const attempts = rounds * cases.length;
console.log(
  `\n| disk full (FORGE_HOME on a 24 MB tmpfs${root ? '' : ', user namespace'}) | ${rounds} rounds × (40 MB-unpacked ZIP, upload > free space, extraction > free space) | ${attempts} uploads | ` +
    `${answered507}/${attempts} answered 507 DISK_FULL, ${failedDiskFull}/${attempts} builds failed DISK_FULL, ${recovered}/${rounds * 2} same uploads succeeded after freeing space, ${violations.length} violations, daemon ${child.exitCode === null ? 'up' : 'DOWN'} | ${seconds} s |\n`,
);
for (const v of violations.slice(0, 20)) console.log(`  FAIL ${v}`);
process.exit(violations.length || child.exitCode !== null ? 1 : 0);
