/**
 * Runaway builds (docs/reliability.md#runaway-builds): an uploaded project whose build script misbehaves — a
 * fork bomb, a memory hog, a process that ignores SIGTERM, a build that writes without end, a log flood — run
 * by a real daemon. Each must end within its limits with a clear code and message, the daemon must keep
 * answering /api/health meanwhile, and nothing of the build may survive it.
 *
 * The limits are lowered through the daemon's FORGE_BUILD_* knobs so that each proof takes seconds;
 * every script is itself bounded (a tree of ≤1023 shells, ≤2 GB of memory or disk) so a regression
 * fails the test instead of harming the machine. The long versions: bench/reliability/runaway.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Build, BuildLogsResponse, UploadResult } from '@forge/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeZip, upload, watch } from '../build-helpers.ts';
import { cleanup, startTestApp, type TestApp } from '../helpers.ts';
import { createCommandCgroup, resourceLimits } from '../../src/capabilities/exec/resource-limits.ts';
import { sandboxAvailable } from '../../src/capabilities/exec/sandbox.ts';

const KNOBS = {
  FORGE_BUILD_PIDS_MAX: '64',
  FORGE_BUILD_MEMORY_MAX: '256m',
  FORGE_BUILD_FILE_SIZE_MAX: '32m',
  FORGE_BUILD_WRITE_MAX: '96m',
};
const saved: Record<string, string | undefined> = {};
beforeAll(() => {
  for (const [name, value] of Object.entries(KNOBS)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});
afterEach(cleanup);

/** Whether the kernel can hold this build's processes and memory (a cgroup the daemon may create). */
async function cgroupsHere(): Promise<boolean> {
  const cgroup = await createCommandCgroup(resourceLimits());
  await cgroup?.remove();
  return cgroup !== null;
}
const contained = (await sandboxAvailable()) && (await cgroupsHere());

/**
 * A project whose build command is `build`, with a per-stage timeout of `timeout`. The forge config
 * names the command, so the script itself (not npm) is the process the runner signals.
 */
const project = (files: Record<string, string>, build: string, timeout = '4s') => ({
  'package.json': JSON.stringify({ name: 'runaway', private: true, scripts: { build } }),
  'forge.config.json': JSON.stringify({ build, timeout }),
  ...files,
});

/** Polls /api/health every 50 ms until stopped; the slowest answer is what a user would have waited. */
function healthProbe(app: TestApp) {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(`${app.url}/api/health`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`/api/health answered ${res.status} during the build`);
      latencies.push(performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return async () => {
    running = false;
    await loop;
    const sorted = [...latencies].sort((a, b) => a - b);
    return { count: sorted.length, max: sorted.at(-1) ?? 0, p50: sorted[Math.floor(sorted.length / 2)] ?? 0 };
  };
}

/** Live processes whose cwd or command line is inside `dir` (the build's folder). */
function processesIn(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      const cwd = fs.readlinkSync(`/proc/${entry}/cwd`);
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cwd.startsWith(dir) || cmdline.includes(dir)) found.push(`${entry} ${cmdline}`);
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

/** This process's command cgroups still on the machine (each command's is removed when it ends). */
const subdirs = (dir: string): string[] => {
  try {
    return fs.readdirSync(dir).map((name) => `${dir}/${name}`);
  } catch {
    return []; // a cgroup v2 machine, or none at all
  }
};
const leftoverCgroups = () =>
  ['/sys/fs/cgroup', '/sys/fs/cgroup/pids', ...subdirs('/sys/fs/cgroup/memory')].flatMap((root) => {
    try {
      return fs.readdirSync(root).filter((name) => name.startsWith(`forge-${process.pid}-`));
    } catch {
      return [];
    }
  });

interface Runaway {
  build: Build;
  wallMs: number;
  health: { count: number; max: number; p50: number };
  log: string[];
  /** Output and log lines of the build streamed on /ws (stored or not). */
  streamed: string[];
}

/** Uploads `files`, waits for the build to end, and checks that nothing of it survived. */
async function runaway(files: Record<string, string>, options: { sandbox?: boolean } = {}): Promise<Runaway> {
  const app = await startTestApp({ ...(options.sandbox === false ? { sandbox: false } : {}) });
  const live = await watch(app);
  const stopProbe = healthProbe(app);
  const t0 = performance.now();
  const res = await upload(app, makeZip('runaway.zip', files));
  expect(res.status).toBe(200);
  const { buildId } = (await res.json()) as UploadResult;
  const build = await live.finished(buildId!, 60_000);
  const wallMs = performance.now() - t0;
  const health = await stopProbe();
  const projectDir = path.join(app.home, 'projects', build.projectName);
  expect(processesIn(projectDir)).toEqual([]);
  expect(leftoverCgroups()).toEqual([]);
  const logs = (await (
    await fetch(`${app.url}/api/builds/${buildId}/logs?limit=10000`)
  ).json()) as BuildLogsResponse;
  const streamed = live.messages.flatMap((m) => {
    if (!('buildId' in m) || m.buildId !== buildId) return [];
    if (m.type === 'log') return [m.message];
    return m.type === 'build-output' || m.type === 'build-error' ? m.output.split('\n') : [];
  });
  return { build, wallMs, health, log: logs.entries.map((e) => e.message), streamed };
}

/** The daemon answered health throughout: every probe under 1 s, even on a busy 2-core machine. */
const expectResponsive = (health: Runaway['health']) => {
  expect(health.count).toBeGreaterThan(0);
  expect(health.max).toBeLessThan(1_000);
};

describe.skipIf(!contained)(
  'runaway builds, contained by the sandbox and a cgroup',
  { timeout: 60_000 },
  () => {
    it('a fork bomb hits its process limit and times out; every process of it is gone', async () => {
      // A binary tree of shells, depth 9 (≤1023 processes even with no limit at all), its leaves asleep.
      const bomb = `f() { if [ "$1" -ge 9 ]; then exec sleep 30; fi; f $(($1+1)) & f $(($1+1)) & wait; }; f 0`;
      const r = await runaway(project({ 'bomb.sh': bomb }, 'sh bomb.sh', '3s'));
      // Either the root shell dies of a refused fork (failed), or the tree holds its 64 until the timeout.
      const limit = /reached its limit of 64 processes: \d+ more were refused/;
      if (r.build.status === 'failed') {
        expect(r.build.error).toMatchObject({ code: 'BUILD_FAILED', message: expect.stringMatching(limit) });
      } else {
        expect(r.build.status).toBe('timed-out');
        expect(r.build.error).toMatchObject({ code: 'STAGE_TIMEOUT' });
      }
      expect(r.log.join('\n')).toMatch(limit);
      expect(r.wallMs).toBeLessThan(30_000);
      expectResponsive(r.health);
    });

    it('a memory hog is stopped at its memory limit, well before its timeout', async () => {
      const hog = `const held = [];
      for (let i = 0; i < 128; i++) { held.push(Buffer.alloc(16 * 1024 * 1024, 1)); console.log('held', (i + 1) * 16, 'MB'); }
      setTimeout(() => {}, 60_000);`;
      const r = await runaway(project({ 'hog.js': hog }, 'node hog.js', '20s'));
      expect(r.build.status).toBe('failed');
      expect(r.build.error).toMatchObject({ code: 'BUILD_FAILED' });
      expect(r.build.error!.message).toMatch(/used more than its memory limit of 256 MB/);
      expect(r.wallMs).toBeLessThan(20_000);
      expectResponsive(r.health);
    });

    it('a file that grows without end is stopped at the per-file limit (EFBIG)', async () => {
      const grow = `const fs = require('fs'); fs.mkdirSync('dist', { recursive: true });
      const fd = fs.openSync('dist/huge.bin', 'w'); const mb = Buffer.alloc(1024 * 1024, 7);
      for (let i = 0; i < 2048; i++) fs.writeSync(fd, mb);`;
      const r = await runaway(project({ 'grow.js': grow }, 'node grow.js', '20s'));
      expect(r.build.status).toBe('failed');
      expect(r.build.error).toMatchObject({ code: 'BUILD_FAILED' });
      expect(r.build.error!.message).toMatch(/wrote a file larger than the limit of 32 MB per file/);
      expectResponsive(r.health);
    });

    it('a build writing many files without end is stopped at the written-bytes cap', async () => {
      // 8 MB files (each under the per-file limit), at most 2 GB with no cap at all.
      const spill = `const fs = require('fs'); fs.mkdirSync('dist', { recursive: true });
      const chunk = Buffer.alloc(8 * 1024 * 1024, 7);
      for (let i = 0; i < 256; i++) fs.writeFileSync('dist/part-' + i + '.bin', chunk);
      setTimeout(() => {}, 60_000);`;
      const r = await runaway(project({ 'spill.js': spill }, 'node spill.js', '20s'));
      expect(r.build.status).toBe('failed');
      expect(r.build.error).toMatchObject({ code: 'BUILD_FAILED' });
      expect(r.build.error!.message).toMatch(
        /wrote [\d.]+ (MB|KB) to disk, more than its limit of 96 MB, and was stopped/,
      );
      expect(r.wallMs).toBeLessThan(20_000);
      expectResponsive(r.health);
    });
  },
);

describe('runaway builds, contained by the runner', { timeout: 60_000 }, () => {
  for (const sandbox of [true, false]) {
    it(`a build that ignores SIGTERM is SIGKILLed and gone (${sandbox ? 'sandboxed' : 'no sandbox: after the grace'})`, async () => {
      const stubborn = `const { spawn } = require('child_process');
        process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
        spawn('sh', ['-c', "trap '' TERM; while :; do sleep 1; done"], { stdio: 'inherit' });
        setInterval(() => {}, 1000); console.log('running');`;
      const r = await runaway(project({ 'stubborn.js': stubborn }, 'node stubborn.js', '2s'), { sandbox });
      expect(r.build.status).toBe('timed-out');
      expect(r.build.error).toMatchObject({ code: 'STAGE_TIMEOUT' });
      expect(r.build.error!.message).toMatch(/ran past its time limit and was stopped/);
      // Unsandboxed, the SIGTERM reached the script itself, which ignored it; sandboxed, bwrap took the
      // namespace down at once.
      if (!sandbox) expect(r.log).toContain('ignoring SIGTERM');
      // 2 s timeout + 5 s grace (unsandboxed) + upload, detect and a busy machine.
      expect(r.wallMs).toBeLessThan(25_000);
      expectResponsive(r.health);
    });
  }

  it('a flood of 300k log lines is capped: the build ends, the stored log stays bounded', async () => {
    const flood = `const line = 'flood line with some padding to look like a chatty bundler\\n';
      let i = 0; const out = () => { while (i < 300_000) { i++; if (!process.stdout.write(i + ' ' + line)) return process.stdout.once('drain', out); } };
      out();`;
    const r = await runaway(project({ 'flood.js': flood }, 'node flood.js', '60s'));
    // The build has no output to serve (failed) or not: what matters is that it ended, bounded.
    expect(['succeeded', 'failed']).toContain(r.build.status);
    // The runner's cap: ~5 MB of lines reached /ws, then one marker, not the 21 MB the script wrote.
    const flooded = r.streamed.filter((l) => l.includes('flood line'));
    expect(flooded.length).toBeGreaterThan(10_000);
    expect(flooded.length).toBeLessThan(100_000);
    expect(r.streamed.some((l) => /output limit of 5 MB reached: [\d.]+ MB more not shown/.test(l))).toBe(
      true,
    );
    // The store's cap: the first 20 000 lines of the build are kept.
    expect(r.build.logTruncated).toBe(true);
    expect(r.build.logCount).toBeLessThanOrEqual(20_001);
    console.log(
      `flood: ${flooded.length} of 300000 lines streamed, ${r.build.logCount} stored, health max ${Math.round(r.health.max)} ms`,
    );
    expectResponsive(r.health);
  });
});
