// Reliability bench, load (docs/reliability.md): the long version of test/reliability/load.test.ts.
//   node --import tsx packages/daemon/bench/reliability/load.ts [seconds]   (default 30)
// Starts the daemon from source as its own process on 127.0.0.1 with a scratch FORGE_HOME, then runs
// the load scenario (bench/reliability/load-harness.ts) and prints the figures for the report card.
// Exits 1 when a correctness check fails (a 5xx other than 503 OVERLOADED + Retry-After, a health
// probe not answered, the slow /ws client neither dropped nor caught up, a reading client dropped).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runLoadScenario } from './load-harness.ts';

const seconds = Number(process.argv[2] ?? 30);
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-load-bench-'));
const env: Record<string, string> = {};
for (const [key, value] of Object.entries(process.env)) {
  if (value !== undefined && !key.startsWith('FORGE_') && !key.startsWith('XDG_')) env[key] = value;
}
Object.assign(env, { HOME: scratch, FORGE_HOME: path.join(scratch, 'home'), NO_COLOR: '1' });
const child = spawn(process.execPath, ['--import', TSX, MAIN, 'run', '--port', '0'], {
  cwd: scratch,
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
try {
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Forge is running at (\S+)\n/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`daemon exited ${code}`)));
  });
  const started = performance.now();
  const report = await runLoadScenario({
    url,
    pid: child.pid!,
    floods: 4,
    floodMs: (seconds + 5) * 1000,
    loadSeconds: seconds,
    fileConnections: 300,
    statusConnections: 150,
    saves: 400,
    buildStarts: 40,
    wsClients: 100,
    // FORGE_LOAD_SLOW=0: the same run without the never-reading client, to compare the others' lag.
    slowClient: process.env.FORGE_LOAD_SLOW !== '0',
    log: (line) => console.error(`[load] ${line}`),
  });
  const wall = ((performance.now() - started) / 1000).toFixed(1);
  const rows = (['files', 'status', 'saves', 'builds'] as const).map((name) => {
    const g = report.groups[name];
    return {
      group: name,
      'conns served': `${g.connectionsServed} / ${g.connections}`,
      requests: g.requests,
      'req/s': g.reqPerSec,
      'p50 ms': g.latencyP50Ms,
      'p99 ms': g.latencyP99Ms,
      statuses: JSON.stringify(g.statuses),
      errors: g.errors,
      timeouts: g.timeouts,
    };
  });
  console.log(
    `Load for ${seconds} s (wall ${wall} s) on ${url}: ${os.cpus().length} cores, Node ${process.version}`,
  );
  console.table(rows);
  const { health, readers, slow, rss, floods } = report;
  const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
  console.table([
    { figure: '503 OVERLOADED + Retry-After', value: report.overloaded },
    { figure: 'other 5xx', value: report.bad5xx.length },
    { figure: 'health asked / answered', value: `${health.asked} / ${health.answered}` },
    {
      figure: 'health p50 / p99 / max ms',
      value: `${health.p50Ms?.toFixed(1)} / ${health.p99Ms?.toFixed(1)} / ${health.maxMs?.toFixed(1)}`,
    },
    { figure: 'daemon RSS start / max / end MB', value: `${rss.startMb} / ${rss.maxMb} / ${rss.endMb}` },
    {
      figure: 'flood builds',
      value: `${floods.map((f) => f.status).join(', ')}; last seq seen ${readers.lastSeqMax}`,
    },
    { figure: 'reading /ws clients open at end', value: `${readers.stillOpen} / ${readers.count}` },
    {
      figure: 'ws log-line lag p50 / p99 / max ms',
      value: `${readers.lagP50Ms} / ${readers.lagP99Ms} / ${readers.lagMaxMs}`,
    },
    {
      figure: 'ws bytes per reading client min / max MB',
      value: `${mb(readers.bytesMin)} / ${mb(readers.bytesMax)}`,
    },
    {
      figure: 'ws delivery to 99 readers (1 thread)',
      value:
        `${mb(readers.floodBytesTotal)} MB in ${(readers.deliveryWindowMs / 1000).toFixed(1)} s = ` +
        `${readers.deliveryMBps ?? '-'} MB/s`,
    },
    {
      figure: 'slow /ws client',
      value: slow.absent
        ? 'absent (FORGE_LOAD_SLOW=0)'
        : slow.dropped
          ? `dropped (close ${slow.closeCode ?? 'cut'}) after ${mb(slow.bytesRead)} MB`
          : 'caught up',
    },
  ]);
  const failures = [
    report.bad5xx.length > 0 && `other 5xx: ${JSON.stringify(report.bad5xx.slice(0, 3))}`,
    health.failed > 0 && `${health.failed} health probes not answered`,
    !(slow.dropped || slow.caughtUp) && 'slow client neither dropped nor caught up',
    readers.stillOpen !== readers.count && `${readers.count - readers.stillOpen} reading clients dropped`,
    ...Object.entries(report.groups).map(([name, g]) => g.requests === 0 && `group ${name} made no requests`),
  ].filter(Boolean);
  for (const f of failures) console.error(`FAIL: ${f}`);
  process.exitCode = failures.length ? 1 : 0;
} finally {
  child.kill('SIGTERM');
  await exited;
  fs.rmSync(scratch, { recursive: true, force: true });
}
