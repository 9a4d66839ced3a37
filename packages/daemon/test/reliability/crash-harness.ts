/**
 * Crash safety, as a campaign of kill -9s against a real daemon process (docs/reliability.md). Shared by the
 * CI test (test/reliability/crash.test.ts, a few kills) and the bench (bench/reliability/crash.ts, many).
 *
 * Every cycle starts the daemon on the same FORGE_HOME, checks what the previous kill left, then sets
 * four things going at once: uploads of a 1,500-file site (extraction), a stream of 1 MB saves through
 * /api/files/save, a build whose script holds a grandchild `sleep`, and a stream of settings writes.
 * It kills the daemon with SIGKILL either on an observed event (a /ws stage, a build's output line, a
 * request in flight) or after a delay drawn from a fixed-seed PRNG, and records what was in flight.
 *
 * After each kill the next start must be clean: it answers /api/health with nothing at error level in
 * its log, no build is left queued/running (the killed one is `interrupted`), every saved file is
 * byte for byte the old or the new content, the site is one whole uploaded version, daemon.json is
 * whole, no process of the killed daemon's builds lives on, `PRAGMA integrity_check` says ok, and
 * FORGE_HOME/tmp empties. No vitest here: the bench runs it as plain Node.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { WebSocket } from 'ws';
import { DAEMON_LOG_FILE, DAEMON_STATE_FILE, DaemonState, LOG_DIR, type ServerMessage } from '@forge/shared';
import { makeZip, type ProjectFiles } from '@forge/testing';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export type Activity = 'extract' | 'save' | 'build' | 'settings';
export const ACTIVITIES: readonly Activity[] = ['extract', 'save', 'build', 'settings'];

export interface CampaignOptions {
  /** How many SIGKILLs (each one hits the four activities at once). */
  kills: number;
  seed: number;
  /** Upper bound of the PRNG delay of a "random" kill, after every activity has begun. */
  maxRandomDelayMs?: number;
  /** Generous bound for each wait on the daemon (busy 2-core machines). */
  timeoutMs?: number;
  log?: (line: string) => void;
  /**
   * false: hide bubblewrap from the daemon (a `bwrap` that fails first on PATH), so builds run
   * unsandboxed, as on a machine without it. Then nothing kills a build with the daemon but the
   * recovery sweep of the next start (with bwrap, --die-with-parent already does).
   */
  sandbox?: boolean;
  /** Keep FORGE_HOME afterwards (for a post-mortem). */
  keepHome?: boolean;
}

export interface KillRecord {
  cycle: number;
  /** What the kill waited for: an event, or `random <ms>`. */
  trigger: string;
  /** Which activities were observably mid-way when SIGKILL was sent. */
  inFlight: Activity[];
}

export interface CampaignReport {
  home: string;
  kills: KillRecord[];
  /** Kills that hit each activity mid-way. */
  hits: Record<Activity, number>;
  /** Restarts checked (one per kill). */
  restarts: number;
  buildsInterrupted: number;
  savesChecked: number;
  /** Largest number of entries seen in FORGE_HOME/tmp right after a kill (before the next start). */
  maxTmpEntriesAfterKill: number;
  /** Every violated invariant, with its cycle; empty when crash safety holds. */
  failures: string[];
  startMs: { min: number; max: number };
}

/** mulberry32: a tiny seeded PRNG, so a failing kill schedule can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sha = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex');

/** Resolves when `check` returns a truthy value; rejects with `what` after timeoutMs. Polls, no sleeps. */
async function waitFor<T>(
  what: string,
  check: () => T | null | false | Promise<T | null | false>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface Daemon {
  child: ChildProcess;
  url: Promise<string>;
  exited: Promise<number | string>;
  stderr: () => string;
}

/** `node --import tsx src/main.ts run --port 0` with HOME and cwd in a scratch dir, FORGE_HOME as given. */
function startDaemon(home: string, cwd: string, sandbox: boolean): Daemon {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('FORGE_') && !key.startsWith('XDG_')) env[key] = value;
  }
  Object.assign(env, { HOME: cwd, FORGE_HOME: home, NO_COLOR: '1' });
  if (!sandbox) {
    const bin = path.join(cwd, 'no-sandbox-bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(bin, 'bwrap'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    env.PATH = `${bin}${path.delimiter}${env.PATH ?? ''}`;
  }
  const child = spawn(process.execPath, ['--import', TSX, MAIN, 'run', '--port', '0'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const match = /Forge is running at (\S+)\n/.exec(out);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`daemon exited (${code}) before listening:\n${err}`)));
  });
  url.catch(() => undefined);
  return { child, url, exited, stderr: () => err };
}

const isLive = (pid: number): boolean => {
  try {
    // A zombie (nobody reaps in some containers) is dead for our purposes.
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
};

/**
 * Live processes that belong to FORGE_HOME's builds: their command line holds `marker` or names a
 * path inside home, or their working directory is inside home. `except` is the running daemon.
 */
export function processesOf(home: string, marker: string, except: readonly number[] = []): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid || except.includes(pid)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      let cwd = '';
      try {
        cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      } catch {
        /* not ours to read */
      }
      const inside = cwd === home || cwd.startsWith(`${home}/`) || cmdline.includes(`${home}/`);
      if ((inside || cmdline.includes(marker)) && isLive(pid)) found.push(`${pid} (${cmdline.trim()})`);
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

/** path → sha256 of every file under dir (links and folders are part of the path set only). */
function treeHashes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else out.set(child, entry.isFile() ? sha(fs.readFileSync(path.join(dir, child))) : 'special');
    }
  };
  walk('');
  return out;
}

const sameTree = (a: Map<string, string>, b: Map<string, string>) =>
  a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

const SITE = 'crash-site';
const SAVES = 'crash-saves';
const BUILD = 'crash-build';
const BIG_FILE = 'big.txt';
const SAVE_BYTES = 1024 * 1024;
const SITE_FILES = 1500;

/** Version `v` of the site: 1,500 files whose bytes all depend on v, so versions never mix unseen. */
function siteFiles(v: number): ProjectFiles {
  const files: ProjectFiles = { 'index.html': `<!doctype html><h1>crash site v${v}</h1>` };
  for (let i = 0; i < SITE_FILES; i++) {
    files[`pages/p${i % 30}/f${i}.txt`] = `v${v} file ${i} `.repeat(40 + (i % 60));
  }
  return files;
}

/** The 1 MB content of save number n (its first bytes name it; the rest differs by n too). */
function saveContent(n: number): string {
  const head = `save ${n} `;
  const fill = String.fromCharCode(97 + (n % 26));
  return head + fill.repeat(SAVE_BYTES - head.length);
}

async function uploadZip(url: string, name: string, zip: Buffer, signal?: AbortSignal): Promise<Response> {
  const form = new FormData();
  form.set('file', new Blob([zip]), name);
  return fetch(`${url}/api/upload`, { method: 'POST', body: form, ...(signal ? { signal } : {}) });
}

async function openWs(url: string): Promise<{ ws: WebSocket; messages: ServerMessage[] }> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`);
  const messages: ServerMessage[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as ServerMessage));
  ws.on('error', () => undefined);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, messages };
}

/** Run the campaign; never throws for a violated invariant (see `failures`), only for a broken harness. */
export async function runCrashCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const random = prng(options.seed);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxDelay = options.maxRandomDelayMs ?? 1_500;
  const log = options.log ?? (() => undefined);
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-crash-'));
  const home = path.join(cwd, 'forge-home');
  const marker = `${(61 + random()).toFixed(6)}`;
  const report: CampaignReport = {
    home,
    kills: [],
    hits: { extract: 0, save: 0, build: 0, settings: 0 },
    restarts: 0,
    buildsInterrupted: 0,
    savesChecked: 0,
    maxTmpEntriesAfterKill: 0,
    failures: [],
    startMs: { min: Infinity, max: 0 },
  };
  const fail = (cycle: number, what: string) => {
    report.failures.push(`cycle ${cycle}: ${what}`);
    log(`FAIL cycle ${cycle}: ${what}`);
  };

  // What must hold after a kill, carried from one cycle to the next.
  const siteVersions = new Map<number, Map<string, string>>();
  let siteAcked = -1;
  let savedAcked: string | null = null;
  const savesInFlight = new Set<string>();
  const savesDirExpected = new Set(['index.html']);
  let settingAcked = -1;
  let settingInFlight = -1;
  let buildIds = new Set<string>();
  let siteVersion = 0;
  let saveNumber = 0;
  let settingNumber = 0;

  const buildZip = makeZip({
    'package.json': JSON.stringify({ scripts: { build: 'node hang.js' } }),
    'hang.js': `const { spawn } = require('child_process');
spawn('sleep', ['${marker}'], { stdio: 'ignore' });
console.log('grandchild started');
setInterval(() => console.log('still building'), 200);`,
  });

  let daemon: Daemon | null = null;
  try {
    for (let cycle = 0; cycle <= options.kills; cycle++) {
      const tmpDir = path.join(home, 'tmp');
      const logFile = path.join(home, LOG_DIR, DAEMON_LOG_FILE);
      if (cycle > 0) {
        const entries = fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir).length : 0;
        report.maxTmpEntriesAfterKill = Math.max(report.maxTmpEntriesAfterKill, entries);
      }
      const logOffset = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
      const started = Date.now();
      daemon = startDaemon(home, cwd, options.sandbox ?? true);
      const url = await daemon.url;
      const startMs = Date.now() - started;
      report.startMs.min = Math.min(report.startMs.min, startMs);
      report.startMs.max = Math.max(report.startMs.max, startMs);
      const pid = daemon.child.pid!;

      // ---- the checks of what the previous kill left ----
      const health = await fetch(`${url}/api/health`);
      if (health.status !== 200) fail(cycle, `/api/health answered ${health.status}`);
      await health.body?.cancel();
      if (cycle > 0) {
        report.restarts++;
        await verifyAfterKill(cycle, url, pid);
      }
      const check = (what: string, ok: boolean) => ok || fail(cycle, what);
      const logged = fs.readFileSync(logFile, 'utf8').slice(logOffset).trim().split('\n');
      for (const line of logged) {
        const entry = JSON.parse(line) as { level: number; msg: string };
        check(`startup logged at error level: ${line.slice(0, 300)}`, entry.level < 50);
      }
      check(`startup wrote to stderr: ${daemon.stderr()}`, daemon.stderr() === '');
      if (cycle === options.kills) break;

      // ---- four activities at once, then SIGKILL ----
      const { ws, messages } = await openWs(url);
      let dead = false;
      const inFlight = { extract: false, save: false, build: false, settings: false };

      if (cycle === 0) {
        // The project the saves go to, uploaded once and kept.
        const zip = makeZip({ 'index.html': '<h1>saves</h1>' });
        const res = await uploadZip(url, `${SAVES}.zip`, zip);
        if (res.status !== 200 && res.status !== 202) throw new Error(`setup upload answered ${res.status}`);
        await res.body?.cancel();
        await waitFor(
          'the saves project to be extracted',
          () => fs.existsSync(path.join(home, 'projects', SAVES, 'index.html')),
          timeoutMs,
        );
      }

      let buildId: string | null = null;
      const building = (async () => {
        try {
          const res = await uploadZip(url, `${BUILD}.zip`, buildZip);
          const body = (await res.json()) as { buildId?: string };
          if (body.buildId) buildId = body.buildId;
        } catch {
          /* killed before the answer */
        }
      })();

      const mode = cycle % 2 === 0 ? 'event' : 'random';
      const buildStarted = () =>
        messages.some((m) => m.type === 'build-output' && m.output.includes('grandchild started'));
      // A random kill then lands while the build runs, whatever else it catches.
      if (mode === 'random') await waitFor('the build to print its first line', buildStarted, timeoutMs);

      const extracting = (async () => {
        while (!dead) {
          const v = ++siteVersion;
          const files = siteFiles(v);
          const zip = makeZip(files);
          siteVersions.set(v, new Map(Object.entries(files).map(([name, data]) => [name, sha(data)])));
          inFlight.extract = true;
          try {
            const res = await uploadZip(url, `${SITE}.zip`, zip);
            await res.body?.cancel();
            if (res.status === 200 || res.status === 202) siteAcked = v;
            else if (!dead) fail(cycle, `site upload v${v} answered ${res.status}`);
          } catch {
            return; // the daemon is gone
          } finally {
            inFlight.extract = false;
          }
        }
      })();

      const saving = (async () => {
        while (!dead) {
          const content = saveContent(++saveNumber);
          const hash = sha(content);
          savesInFlight.add(hash);
          inFlight.save = true;
          try {
            const res = await fetch(`${url}/api/files/save`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ path: BIG_FILE, content, project: SAVES }),
            });
            await res.body?.cancel();
            if (res.status !== 200) {
              if (!dead) fail(cycle, `save answered ${res.status}`);
              continue;
            }
            savedAcked = hash;
            savesDirExpected.add(BIG_FILE);
            savesInFlight.clear();
          } catch {
            return;
          } finally {
            inFlight.save = false;
          }
        }
      })();

      const setting = (async () => {
        while (!dead) {
          const value = ((++settingNumber * 7) % 99) + 2;
          settingInFlight = value;
          inFlight.settings = true;
          try {
            const res = await fetch(`${url}/api/settings`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ maxConcurrentBots: value }),
            });
            const body = (await res.json()) as { maxConcurrentBots?: number };
            if (res.status === 200 && body.maxConcurrentBots === value) settingAcked = value;
            else if (!dead) fail(cycle, `settings write answered ${res.status}`);
          } catch {
            return;
          } finally {
            inFlight.settings = false;
          }
        }
      })();

      // ---- choose the moment ----
      let trigger: string;
      if (mode === 'event') {
        const target = ACTIVITIES[(cycle / 2) % ACTIVITIES.length]!;
        switch (target) {
          case 'extract':
            trigger = 'ws build-stage extraction';
            await waitFor(
              'a site upload in its extraction stage',
              () => {
                const stages = messages.filter(
                  (m): m is Extract<ServerMessage, { type: 'build-stage' }> =>
                    m.type === 'build-stage' && m.projectName === SITE,
                );
                const last = stages.at(-1);
                return inFlight.extract && last?.stage === 'extraction';
              },
              timeoutMs,
            );
            break;
          case 'build':
            trigger = 'ws build-output "grandchild started"';
            await waitFor('the build to print its first line', buildStarted, timeoutMs);
            break;
          case 'save': {
            const after = saveNumber + 1 + Math.floor(random() * 3);
            trigger = `save #${after} in flight`;
            await waitFor('a save in flight', () => saveNumber >= after && inFlight.save, timeoutMs);
            break;
          }
          case 'settings': {
            const after = settingNumber + 5 + Math.floor(random() * 20);
            trigger = `settings write #${after} in flight`;
            await waitFor(
              'a settings write in flight',
              () => settingNumber >= after && inFlight.settings,
              timeoutMs,
            );
            break;
          }
        }
      } else {
        const delay = Math.round(random() * maxDelay);
        trigger = `random ${delay} ms after every activity began`;
        await waitFor('the four activities to begin', () => saveNumber > 0 && settingNumber > 0, timeoutMs);
        const at = Date.now() + delay;
        await waitFor('the drawn kill moment', () => Date.now() >= at, delay + timeoutMs);
      }
      const buildRunning = buildStarted();
      const siteStages = messages.filter(
        (m): m is Extract<ServerMessage, { type: 'build-stage' }> =>
          m.type === 'build-stage' && m.projectName === SITE,
      );
      const hit: Activity[] = [];
      if (inFlight.extract && siteStages.at(-1)?.stage === 'extraction') hit.push('extract');
      if (inFlight.save) hit.push('save');
      if (buildRunning) hit.push('build');
      if (inFlight.settings) hit.push('settings');
      dead = true;
      daemon.child.kill('SIGKILL');
      await daemon.exited;
      ws.terminate();
      await Promise.all([extracting, saving, setting, building]);
      for (const a of hit) report.hits[a]++;
      report.kills.push({ cycle, trigger, inFlight: hit });
      log(`kill ${cycle + 1}/${options.kills}: ${trigger}; in flight: ${hit.join(', ') || 'nothing'}`);

      // Every build this daemon announced must be finished by the next start.
      buildIds = new Set(messages.flatMap((m) => (m.type === 'build-stage' && m.buildId ? [m.buildId] : [])));
      if (buildId) buildIds.add(buildId);
      daemon = null;
    }
  } finally {
    if (daemon && daemon.child.exitCode === null && daemon.child.signalCode === null) {
      daemon.child.kill('SIGTERM');
      const code = await daemon.exited;
      if (code !== 0) report.failures.push(`the last daemon stopped with ${code} on SIGTERM`);
    }
    for (const p of processesOf(home, marker)) report.failures.push(`left running at the end: ${p}`);
    if (!options.keepHome && report.failures.length === 0) fs.rmSync(cwd, { recursive: true, force: true });
  }
  return report;

  async function verifyAfterKill(cycle: number, url: string, pid: number): Promise<void> {
    const check = (what: string, ok: boolean) => ok || fail(cycle, what);

    // The store: whole, and no build left in flight.
    const db = new Database(path.join(home, 'forge.db'), { readonly: true });
    try {
      check('integrity_check is not ok', db.pragma('integrity_check', { simple: true }) === 'ok');
      const active = db
        .prepare("SELECT id, status FROM builds WHERE status IN ('queued', 'running')")
        .all() as Array<{ id: string; status: string }>;
      check(`builds left in flight: ${JSON.stringify(active)}`, active.length === 0);
      for (const id of buildIds) {
        const row = db.prepare('SELECT status FROM builds WHERE id = ?').get(id) as
          { status: string } | undefined;
        check(`build ${id} of the killed daemon is missing`, row !== undefined);
        if (row?.status === 'interrupted') report.buildsInterrupted++;
      }
    } finally {
      db.close();
    }

    // No process of the killed daemon's builds.
    const orphans = await waitFor(
      'the orphans of the killed daemon to be gone',
      () => {
        const left = processesOf(home, marker, [pid]);
        return left.length === 0 ? [] : null;
      },
      5_000,
    ).catch(() => processesOf(home, marker, [pid]));
    check(`processes of the killed daemon live on: ${orphans.join('; ')}`, orphans.length === 0);

    // The 1 MB file: the acknowledged content or the one in flight, byte for byte.
    const savesDir = path.join(home, 'projects', SAVES);
    const big = path.join(savesDir, BIG_FILE);
    if (fs.existsSync(big)) {
      const hash = sha(fs.readFileSync(big));
      report.savesChecked++;
      const whole = hash === savedAcked || savesInFlight.has(hash);
      check(
        `${BIG_FILE} is torn (${fs.statSync(big).size} bytes, neither the acknowledged nor the in-flight save)`,
        whole,
      );
      // A first save committed just before the kill, never answered, is as good as an answered one.
      if (whole) savesDirExpected.add(BIG_FILE);
    } else {
      check(`${BIG_FILE} vanished after an acknowledged save`, savedAcked === null);
    }
    const strays = fs.readdirSync(savesDir).filter((name) => !savesDirExpected.has(name));
    check(`stray files in the saved project: ${strays.join(', ')}`, strays.length === 0);
    // What survived is what the next kill must keep (a save committed just before a kill counts).
    if (fs.existsSync(big)) savedAcked = sha(fs.readFileSync(big));
    savesInFlight.clear();
    const viaApi = await fetch(`${url}/api/files/content?project=${SAVES}&path=${BIG_FILE}`);
    check(`reading the saved file answered ${viaApi.status}`, viaApi.status === 200 || savedAcked === null);
    await viaApi.body?.cancel();

    // The site: one whole uploaded version, never a mix, never gone once one was acknowledged.
    const siteDir = path.join(home, 'projects', SITE);
    if (fs.existsSync(siteDir)) {
      const tree = treeHashes(siteDir);
      const version = [...siteVersions].find(([, files]) => sameTree(files, tree))?.[0];
      check(`the site is no uploaded version whole (${tree.size} files)`, version !== undefined);
      if (version !== undefined) {
        check(`the site went back to v${version} after v${siteAcked} was acknowledged`, version >= siteAcked);
        siteAcked = version;
      }
    } else {
      check(`the site vanished after v${siteAcked} was acknowledged`, siteAcked < 0);
    }

    // Settings: the acknowledged value or the one in flight.
    const settings = (await (await fetch(`${url}/api/settings`)).json()) as { maxConcurrentBots: number };
    if (settingAcked > 0) {
      check(
        `maxConcurrentBots is ${settings.maxConcurrentBots}, neither ${settingAcked} nor ${settingInFlight}`,
        [settingAcked, settingInFlight].includes(settings.maxConcurrentBots),
      );
    }
    settingAcked = settings.maxConcurrentBots;

    // daemon.json: whole, and this daemon's.
    try {
      const state = DaemonState.parse(
        JSON.parse(fs.readFileSync(path.join(home, DAEMON_STATE_FILE), 'utf8')),
      );
      check(`daemon.json names pid ${state.pid}, not ${pid}`, state.pid === pid);
    } catch (err) {
      fail(cycle, `daemon.json is unreadable: ${(err as Error).message}`);
    }
    const homeStrays = fs.readdirSync(home).filter((n) => n.startsWith(`${DAEMON_STATE_FILE}.`));
    check(`stray state-file temporaries: ${homeStrays.join(', ')}`, homeStrays.length === 0);

    // Scratch space: whatever the kill left in tmp is swept, so it cannot grow kill after kill.
    const tmpDir = path.join(home, 'tmp');
    const left = await waitFor(
      'FORGE_HOME/tmp to empty',
      () => {
        const names = fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir) : [];
        return names.length === 0 ? [] : null;
      },
      10_000,
    ).catch(() => fs.readdirSync(tmpDir));
    check(`FORGE_HOME/tmp keeps ${left.length} leftovers: ${left.slice(0, 5).join(', ')}`, left.length === 0);
  }
}
