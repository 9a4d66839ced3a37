// Pipeline benchmark, side by side in one run (reported as ratios, never asserted):
//   1. upload → build finished for a real Vite + React project vs `npm install && npm run build` by hand
//   2. a cache-hit re-upload vs `npm run build` by hand with node_modules already installed
//   3. a 100k-line log flood streamed to 10 WebSocket clients vs the same script writing to /dev/null
// Run: pnpm bench pipeline   (needs `pnpm build`: it starts the built daemon, dist/main.js)
// Options: --runs N (default 3). The first run warms npm's cache (not counted) — both sides share it.
import { spawnSync } from 'node:child_process';
import { startBenchDaemon } from './bench-daemon.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AdmZip from 'adm-zip';
import { WebSocket } from 'ws';
import type { ServerMessage } from '@forge/shared';
import { VITE_REACT_APP } from '../test/fixtures/vite-react.ts';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const main = path.join(pkgDir, 'dist/main.js');
if (!fs.existsSync(main)) {
  console.error('packages/daemon/dist/main.js is missing: run pnpm build first.');
  process.exit(1);
}
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 3;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-bench-pipeline-'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

function writeTree(dir: string, files: Record<string, string>, strip: string): void {
  for (const [name, content] of Object.entries(files)) {
    if (!name.startsWith(strip)) continue;
    const file = path.join(dir, name.slice(strip.length));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

function zipOf(files: Record<string, string>, name: string): string {
  const zip = new AdmZip();
  for (const [file, content] of Object.entries(files)) zip.addFile(file, Buffer.from(content));
  const out = path.join(scratch, name);
  zip.writeZip(out);
  return out;
}

function timeCommand(cmd: string, argv: string[], cwd: string): number {
  const t = performance.now();
  const r = spawnSync(cmd, argv, { cwd, stdio: 'ignore', env: { ...process.env, CI: 'true' } });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed in ${cwd}`);
  return performance.now() - t;
}

const startDaemon = (home: string) => startBenchDaemon(main, scratch, { ...process.env, FORGE_HOME: home });

function rssPeakKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

async function openClient(url: string, onMessage: (m: ServerMessage) => void): Promise<WebSocket> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`);
  ws.on('message', (d) => onMessage(JSON.parse(d.toString()) as ServerMessage));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return ws;
}

/** Upload and wait for build-finished; returns ms from the start of the upload. */
async function uploadAndWait(
  url: string,
  zip: string,
  query = '',
): Promise<{ ms: number; status: string; cacheHit: boolean }> {
  let resolveDone!: (m: Extract<ServerMessage, { type: 'build-finished' }>) => void;
  const done = new Promise<Extract<ServerMessage, { type: 'build-finished' }>>((r) => (resolveDone = r));
  let buildId = '';
  const early: Array<Extract<ServerMessage, { type: 'build-finished' }>> = [];
  const ws = await openClient(url, (m) => {
    if (m.type !== 'build-finished') return;
    if (buildId && m.buildId === buildId) resolveDone(m);
    else early.push(m);
  });
  const t = performance.now();
  const form = new FormData();
  form.set('file', new Blob([fs.readFileSync(zip)]), path.basename(zip));
  const res = await fetch(`${url}/api/upload${query}`, { method: 'POST', body: form });
  const body = (await res.json()) as { buildId: string };
  buildId = body.buildId;
  const already = early.find((m) => m.buildId === buildId);
  const finished = already ?? (await done);
  const ms = performance.now() - t;
  ws.close();
  return { ms, status: finished.status, cacheHit: finished.cacheHit ?? false };
}

const rows: string[][] = [];
const home = path.join(scratch, 'home');
const daemon = await startDaemon(home);
try {
  // 1. Vite + React from ZIP to build finished, vs by hand.
  const byHand: number[] = [];
  const forge: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const dir = path.join(scratch, `by-hand-${i}`);
    writeTree(dir, VITE_REACT_APP, 'vite-react-app/');
    const install = timeCommand('npm', ['install', '--no-audit', '--no-fund'], dir);
    const build = timeCommand('npm', ['run', 'build'], dir);
    const renamed = Object.fromEntries(
      Object.entries(VITE_REACT_APP).map(([k, v]) => [k.replace('vite-react-app/', `vite-app-${i}/`), v]),
    );
    const r = await uploadAndWait(daemon.url, zipOf(renamed, `vite-app-${i}.zip`));
    if (r.status !== 'succeeded') throw new Error(`Forge build ${r.status}`);
    if (i === 0) continue; // warm-up: fills npm's cache for both sides
    byHand.push(install + build);
    forge.push(r.ms);
  }
  rows.push([
    'Vite + React: ZIP → built (no lockfile, npm install + vite build)',
    fmt(median(byHand)),
    fmt(median(forge)),
    (median(forge) / median(byHand)).toFixed(2),
  ]);

  // 2. Cache hit vs a rebuild by hand with node_modules present.
  const hits: number[] = [];
  const rebuilds: number[] = [];
  const zip = path.join(scratch, `vite-app-${runs}.zip`);
  for (let i = 0; i < runs; i++) {
    const r = await uploadAndWait(daemon.url, zip);
    if (!r.cacheHit) throw new Error('expected a cache hit');
    hits.push(r.ms);
    rebuilds.push(timeCommand('npm', ['run', 'build'], path.join(scratch, `by-hand-${runs}`)));
  }
  rows.push([
    're-upload of the same source (cache hit) vs `npm run build` by hand',
    fmt(median(rebuilds)),
    fmt(median(hits)),
    (median(hits) / median(rebuilds)).toFixed(2),
  ]);

  // 3. Log flood to 10 clients.
  const LINES = 100_000;
  const flood = `let s='';for(let i=0;i<${LINES};i++)s+='log line number '+i+' of the flood\\n';process.stdout.write(s);require('fs').mkdirSync('dist',{recursive:true});require('fs').writeFileSync('dist/index.html','ok');`;
  const floodDir = path.join(scratch, 'flood-by-hand');
  writeTree(floodDir, { 'flood.js': flood }, '');
  const rawMs = median([0, 1, 2].map(() => timeCommand(process.execPath, ['flood.js'], floodDir)));
  const counts = new Array<number>(10).fill(0);
  const clients = await Promise.all(
    counts.map((_, i) =>
      openClient(daemon.url, (m) => {
        if (m.type === 'build-output') counts[i]! += m.output.split('\n').length;
      }),
    ),
  );
  const floodZip = zipOf(
    { 'package.json': JSON.stringify({ scripts: { build: 'node flood.js' } }), 'flood.js': flood },
    'flood.zip',
  );
  const r = await uploadAndWait(daemon.url, floodZip, '?noCache=1');
  for (const c of clients) c.close();
  const delivered = Math.min(...counts);
  rows.push([
    `log flood: ${LINES.toLocaleString('en')} lines to 10 WebSocket clients (each got ${delivered.toLocaleString('en')}; ${((delivered * 10) / (r.ms / 1000) / 1e6).toFixed(2)}M lines/s delivered)`,
    fmt(rawMs),
    fmt(r.ms),
    (r.ms / rawMs).toFixed(2),
  ]);
  const rss = rssPeakKb(daemon.pid);
  console.log(
    `\nMachine: ${os.cpus().length} cores, Node ${process.version}; median of ${runs} runs; daemon peak RSS ${(rss / 1024).toFixed(0)} MB.\n`,
  );
  console.log('| work | by hand | Forge | Forge / by hand |');
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
} finally {
  await daemon.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}
