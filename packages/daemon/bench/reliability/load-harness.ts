// The load scenario shared by the CI test (test/reliability/load.test.ts, short) and the bench
// (bench/reliability/load.ts, long): a daemon running as its own process is hit, on loopback only,
// by autocannon over the file, status and build APIs while a build floods its log and 100 /ws
// clients watch it, one of which never reads. Each autocannon group runs on a worker thread of its own
// (load-autocannon.worker.mjs: instances sharing an event loop starve each other), and the observers
// (the /ws clients and a /api/health probe) on another (load-observers.worker.mjs), so the load
// generator's busy loops do not distort what they measure.
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { AutocannonRequest } from 'autocannon';
import { makeZip } from '@forge/testing';

export const FLOOD_PROJECT = 'load-flood';
const floodName = (i: number) => `${FLOOD_PROJECT}-${i + 1}`;
export const SITE_PROJECT = 'load-site';
const FLOOD_MARKER = 'FLOODLINE';

export interface LoadScenario {
  /** Daemon base URL (must be loopback) and the pid whose VmRSS is sampled. */
  url: string;
  pid: number;
  /**
   * Flood builds (projects load-flood-1…n, uploaded together), and how long each prints. A command's
   * delivered output is capped (capabilities/exec: 5 MB), so several floods are what push more than the
   * /ws buffer cap plus the kernel's socket buffers towards the client that never reads.
   */
  floods: number;
  floodMs: number;
  /** How long autocannon runs (it starts once flood lines reach the /ws clients). */
  loadSeconds: number;
  /** Connections reading the file API, and the status routes. */
  fileConnections: number;
  statusConnections: number;
  /** File saves and build starts sent during the load. */
  saves: number;
  buildStarts: number;
  /** /ws clients in all, the one that never reads included. */
  wsClients: number;
  /**
   * Whether one of the clients never reads (default true). The bench runs once without it to show
   * the slow client does not slow the others (FORGE_LOAD_SLOW=0).
   */
  slowClient?: boolean;
  log?: (line: string) => void;
}

export interface GroupFigures {
  requests: number;
  /** Connections opened, and how many of them got at least one answer. */
  connections: number;
  connectionsServed: number;
  reqPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
}

export interface LoadReport {
  groups: Record<'files' | 'status' | 'saves' | 'builds', GroupFigures>;
  /** 503 answers that were OVERLOADED with a Retry-After header (the deliberate refusal). */
  overloaded: number;
  /** Every other 5xx (or a 503 without its code or Retry-After): each one a failure. */
  bad5xx: Array<{ group: string; status: number; body: string; retryAfter: string | undefined }>;
  health: {
    asked: number;
    answered: number;
    failed: number;
    statuses: Record<string, number>;
    p50Ms: number | null;
    p99Ms: number | null;
    maxMs: number | null;
  };
  readers: {
    count: number;
    stillOpen: number;
    closeCodes: number[];
    sawLastMessage: number;
    lastSeqMin: number;
    lastSeqMax: number;
    messagesMin: number;
    lagP50Ms: number | null;
    lagP99Ms: number | null;
    lagMaxMs: number;
    lagSamples: number;
    /** Frame payload bytes each reading client received (all messages), least and most. */
    bytesMin: number;
    bytesMax: number;
    /**
     * Flood-frame bytes delivered to all reading clients together, over the time from the first
     * flood frame to the last one any of them got: what one observer thread managed to read, which
     * is what bounds the lag (the daemon buffers up to its per-client cap, then drops the client).
     */
    floodBytesTotal: number;
    deliveryWindowMs: number;
    deliveryMBps: number | null;
  };
  slow: {
    dropped: boolean;
    closeCode: number | null;
    bytesRead: number;
    caughtUp: boolean;
    absent?: boolean;
  };
  floods: Array<{ status: string; logCount: number }>;
  rss: { startMb: number; maxMb: number; endMb: number; samples: number };
}

/** A static site with a few dozen files to read and save. */
const siteFiles = (): Record<string, string> => {
  const files: Record<string, string> = {
    'index.html': '<!doctype html><html><body><h1>load</h1><script src="src/main.js"></script></body></html>',
  };
  for (let i = 0; i < 30; i++) {
    files[`src/module-${i}.js`] = `export const value${i} = ${i};\n${'// padding line\n'.repeat(40)}`;
  }
  files['src/main.js'] = 'import { value0 } from "./module-0.js"; console.log(value0);\n';
  return files;
};

/** A build that prints lines as fast as it can for `ms`, each carrying its sequence and a timestamp. */
const floodFiles = (name: string, ms: number): Record<string, string> => ({
  'package.json': JSON.stringify({ name, private: true, scripts: { build: 'node flood.js' } }),
  'flood.js': `const fs = require('fs');
const end = Date.now() + ${ms};
const pad = 'x'.repeat(60);
let seq = 0;
while (Date.now() < end) {
  const now = Date.now();
  let chunk = '';
  for (let i = 0; i < 50; i++) chunk += '${FLOOD_MARKER} ' + seq++ + ' ' + now + ' ' + pad + '\\n';
  process.stdout.write(chunk);
}
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><html><body>flooded ' + seq + ' lines</body></html>');
console.log('flood done: ' + seq + ' lines');`,
});

async function upload(url: string, name: string, files: Record<string, string>): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([makeZip(files)]), `${name}.zip`);
  const res = await fetch(`${url}/api/upload`, { method: 'POST', body: form });
  const body = (await res.json()) as { buildId?: string; error?: string };
  if (!res.ok || !body.buildId)
    throw new Error(`upload of ${name} answered ${res.status}: ${JSON.stringify(body)}`);
  return body.buildId;
}

/** Polls the build record until it has ended; resolves with it. */
async function buildEnded(
  url: string,
  id: string,
  timeoutMs: number,
): Promise<{ status: string; logCount: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${url}/api/builds/${id}`);
    if (res.ok) {
      const build = (await res.json()) as { status: string; logCount: number };
      if (build.status !== 'queued' && build.status !== 'running') return build;
    }
    if (Date.now() > deadline) throw new Error(`build ${id} still not ended after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const vmRssMb = (pid: number): number => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
};

/** Samples the daemon's resident memory every 100 ms until stopped. */
function rssSampler(pid: number) {
  const start = vmRssMb(pid);
  let max = start;
  let samples = 1;
  const timer = setInterval(() => {
    try {
      max = Math.max(max, vmRssMb(pid));
      samples++;
    } catch {
      /* the process is gone: the report says so by its end figure */
    }
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      let end = 0;
      try {
        end = vmRssMb(pid);
        max = Math.max(max, end);
      } catch {
        end = 0;
      }
      return { startMb: start, maxMb: max, endMb: end, samples };
    },
  };
}

interface Observers {
  firstLine: Promise<void>;
  stop(slowTimeoutMs: number): Promise<Pick<LoadReport, 'health' | 'readers' | 'slow'>>;
  terminate(): Promise<number>;
}

/**
 * The next message of a given type from `worker`; rejects when the worker fails or exits first
 * (`what` names it in the error).
 */
function workerMessages(worker: Worker, what: string) {
  const failed = new Promise<never>((_, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`${what} exited (${code})`)));
  });
  failed.catch(() => undefined);
  return (type: string): Promise<Record<string, unknown>> =>
    Promise.race([
      new Promise<Record<string, unknown>>((resolve) => {
        const on = (m: Record<string, unknown>) => {
          if (m.type !== type) return;
          worker.off('message', on);
          resolve(m);
        };
        worker.on('message', on);
      }),
      failed,
    ]);
}

async function startObservers(url: string, clients: number, withSlowClient: boolean): Promise<Observers> {
  const worker = new Worker(new URL('./load-observers.worker.mjs', import.meta.url), {
    workerData: { url, clients, marker: FLOOD_MARKER, withSlowClient },
  });
  const next = workerMessages(worker, 'load observers');
  const ready = next('ready');
  const firstLine = next('first-line').then(() => undefined);
  firstLine.catch(() => undefined);
  await ready;
  return {
    firstLine,
    async stop(slowTimeoutMs) {
      const report = next('report');
      worker.postMessage({ type: 'stop', slowTimeoutMs });
      return (await report) as unknown as Pick<LoadReport, 'health' | 'readers' | 'slow'>;
    },
    terminate: () => worker.terminate(),
  };
}

type GroupName = 'files' | 'status' | 'saves' | 'builds';

interface GroupRun {
  group: GroupName;
  connections: number;
  /** Seconds to run, or a number of requests to send: one of the two. */
  duration?: number;
  amount?: number;
  requests: AutocannonRequest[];
}

interface GroupOutcome {
  figures: Omit<GroupFigures, 'statuses' | 'reqPerSec' | 'connections'> & { durationS: number };
  statuses: Record<string, number>;
  overloaded: number;
  bad5xx: LoadReport['bad5xx'];
}

interface GroupWorker {
  /** Fires the group: `connected` once each of its connections got an answer, `result` at its end. */
  start(): { connected: Promise<void>; result: Promise<GroupOutcome> };
  terminate(): Promise<number>;
}

/**
 * Starts one autocannon group on a worker thread of its own (load-autocannon.worker.mjs) and waits
 * until it is ready to fire: autocannon instances sharing one event loop starve each other, so a
 * group that came second in the same process made next to no requests.
 */
async function startGroupWorker(url: string, run: GroupRun): Promise<GroupWorker> {
  // onResponse cannot cross to the worker (the check of each answer is done there); the JSON round
  // trip drops it, and the keys left undefined, which autocannon would take over its defaults.
  const requests = JSON.parse(JSON.stringify(run.requests)) as AutocannonRequest[];
  const worker = new Worker(new URL('./load-autocannon.worker.mjs', import.meta.url), {
    workerData: { ...run, requests, url, timeout: 20 },
  });
  const next = workerMessages(worker, `autocannon group ${run.group}`);
  await next('ready');
  return {
    start() {
      const connected = next('connected').then(() => undefined);
      const result = next('result') as Promise<unknown> as Promise<GroupOutcome>;
      connected.catch(() => undefined);
      result.catch(() => undefined);
      worker.postMessage({ type: 'start' });
      return { connected, result };
    },
    terminate: () => worker.terminate(),
  };
}

/** The longest head start a group gets before the next one starts (see runLoadScenario). */
const CONNECT_WAIT_MS = 10_000;

const JSON_HEADERS = { 'content-type': 'application/json' };

export async function runLoadScenario(s: LoadScenario): Promise<LoadReport> {
  const log = s.log ?? (() => undefined);
  const { hostname } = new URL(s.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(hostname)) throw new Error('load only targets loopback');

  log('uploading the site and waiting for its first build');
  await buildEnded(s.url, await upload(s.url, SITE_PROJECT, siteFiles()), 60_000);

  const q = `project=${SITE_PROJECT}`;
  const fileRequests: AutocannonRequest[] = [
    { path: `/api/files/structure?${q}` },
    ...[0, 7, 13, 21, 29].map((i) => ({
      path: `/api/files/content?${q}&path=${encodeURIComponent(`src/module-${i}.js`)}`,
    })),
    { path: `/api/files/content?${q}&path=index.html` },
  ];
  const statusRequests: AutocannonRequest[] = [
    '/api/bots',
    '/api/bots/status',
    '/api/builds?limit=20',
    `/api/builds?project=${floodName(0)}&limit=5`,
    '/api/settings',
    '/api/forge/status',
  ].map((path) => ({ path }));
  const saveRequests: AutocannonRequest[] = [
    {
      method: 'POST',
      path: '/api/files/save',
      headers: JSON_HEADERS,
      // autocannon sends the body as given; each connection rewrites the same small file.
      body: JSON.stringify({ project: SITE_PROJECT, path: 'src/saved.js', content: '// saved\n' }),
    },
  ];
  const buildRequests: AutocannonRequest[] = [
    {
      method: 'POST',
      path: '/api/builds',
      headers: JSON_HEADERS,
      body: JSON.stringify({ projectName: SITE_PROJECT }),
    },
  ];

  // Started in this order (see below): the status routes first, the biggest group last.
  const runs: GroupRun[] = [
    { group: 'status', connections: s.statusConnections, duration: s.loadSeconds, requests: statusRequests },
    { group: 'saves', connections: 4, amount: s.saves, requests: saveRequests },
    { group: 'builds', connections: 2, amount: s.buildStarts, requests: buildRequests },
    { group: 'files', connections: s.fileConnections, duration: s.loadSeconds, requests: fileRequests },
  ];
  const groupWorkers: GroupWorker[] = [];
  log(
    `connecting ${s.wsClients} /ws clients (${s.slowClient === false ? 'no slow one' : 'one never reads'}) and the health probe`,
  );
  const observers = await startObservers(s.url, s.wsClients, s.slowClient ?? true);
  const rss = rssSampler(s.pid);
  try {
    for (const run of runs) groupWorkers.push(await startGroupWorker(s.url, run));
    log(`uploading ${s.floods} flood builds`);
    const floodIds: string[] = [];
    for (let i = 0; i < s.floods; i++) {
      floodIds.push(await upload(s.url, floodName(i), floodFiles(floodName(i), s.floodMs)));
    }
    await Promise.race([
      observers.firstLine,
      new Promise((_, reject) =>
        setTimeout(
          () => reject(new Error('no flood line reached the /ws clients within 60 s')),
          60_000,
        ).unref(),
      ),
    ]);
    log(`flood flowing; autocannon for ${s.loadSeconds} s, one worker thread per group`);
    // One group after the other, each once the one before has every connection answered or had a
    // fifth of the run: the daemon accepts one new connection per turn of its event loop (libuv >=
    // 1.45), so with every group connecting at once, the one whose connects landed last in the
    // kernel's accept queue was starved once the loop got busy (0 requests in 10 s). Connects reach
    // the queue at once, so a head start orders them; the groups overlap for most of the run.
    const headStartMs = Math.min(CONNECT_WAIT_MS, (s.loadSeconds * 1000) / 5);
    const started: Array<Promise<GroupOutcome>> = [];
    for (const w of groupWorkers) {
      const { connected, result } = w.start();
      started.push(result);
      await Promise.race([connected, result, new Promise((resolve) => setTimeout(resolve, headStartMs))]);
    }
    const outcomes = await Promise.all(started);
    log('load done; waiting for the flood builds to end');
    const floods = [];
    for (const id of floodIds) floods.push(await buildEnded(s.url, id, s.floodMs + 120_000));
    // The run's last /ws message: every reading client must get it; the slow one reads up to it or
    // finds its connection closed.
    const current = (await (await fetch(`${s.url}/api/settings`)).json()) as { debugMode: boolean };
    const sentinel = await fetch(`${s.url}/api/settings`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ debugMode: current.debugMode }),
    });
    if (!sentinel.ok) throw new Error(`the closing settings change answered ${sentinel.status}`);
    const observed = await observers.stop(20_000);
    const figures = ({ figures: f, statuses }: GroupOutcome, connections: number): GroupFigures => ({
      requests: f.requests,
      connections,
      connectionsServed: f.connectionsServed,
      reqPerSec: Math.round(f.requests / Math.max(f.durationS, 0.001)),
      latencyP50Ms: f.latencyP50Ms,
      latencyP99Ms: f.latencyP99Ms,
      statuses,
      errors: f.errors,
      timeouts: f.timeouts,
    });
    const groups = Object.fromEntries(
      outcomes.map((o, i) => [runs[i]!.group, figures(o, runs[i]!.connections)]),
    ) as LoadReport['groups'];
    return {
      groups,
      overloaded: outcomes.reduce((sum, o) => sum + o.overloaded, 0),
      bad5xx: outcomes.flatMap((o) => o.bad5xx).slice(0, 20),
      ...observed,
      floods: floods.map((f) => ({ status: f.status, logCount: f.logCount })),
      rss: rss.stop(),
    };
  } finally {
    rss.stop();
    await Promise.all(groupWorkers.map((w) => w.terminate()));
    await observers.terminate();
  }
}
