// Scale-out benchmark (docs/scale-out.md), side by side in one run (reported as ratios, never asserted):
//   1. N real Vite + React builds uploaded at once to a coordinator (FORGE_QUEUE_URL, BullMQ) with
//      1 `forge worker` vs 2 workers, each `--concurrency 1`: wall time from the first upload to the
//      last build's end, how long one build runs, and how many builds each worker took. Every
//      configuration (and every run of it) gets a fresh Redis, a fresh coordinator and fresh worker
//      homes. The N uploads are distinct projects (own name, own source) so nothing is a cache hit;
//      one build on its own first warms the package caches (not counted). A fresh worker home still
//      fetches its package manager and fills its store on its first build: 2 workers pay that twice.
//   2. Queue latency over M small builds (PROJECTS['hello-site'], uploaded one after another, each
//      waited to end): coordinator + 1 worker vs an in-process daemon (no FORGE_QUEUE_URL). Times are
//      the daemon's own stage times: upload answered → started on a worker ('bot-assignment'), and
//      upload sent → started, median and p90.
// Run: pnpm bench scale   (needs `pnpm build`: it runs the built daemon, dist/main.js, and Debian's
//      redis-server; the Vite builds install from the npm registry)
// Options: --builds N (default 4), --runs N (default 3: each configuration N times, median),
//          --latency M (default 20).
// On a machine with fewer cores than workers, the workers share the same cores: the 2-worker ratio
// then shows the queue's overhead and the machine's ceiling, not what a farm of machines would gain.
import os from 'node:os';
import type { Build } from '@forge/shared';
import {
  coordinatorApi,
  DAEMON_MAIN,
  hasRedis,
  makeZip,
  PROJECTS,
  startDaemon,
  startRedis,
  startWorker,
  type ProjectFiles,
} from '@forge/testing';
import { VITE_REACT_APP } from '../test/fixtures/vite-react.ts';

const args = process.argv.slice(2);
/** A positive whole number given as `--name N`, else `fallback`. */
function option(name: string, fallback: number): number {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const value = Number(args[i + 1]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} needs a whole number ≥ 1 (got ${args[i + 1] ?? 'nothing'}).`);
    process.exit(2);
  }
  return value;
}
const BUILDS = option('--builds', 4);
const RUNS = option('--runs', 3);
const LATENCY = option('--latency', 20);

if (!hasRedis()) {
  console.error('redis-server is not installed (apt-get install redis-server): the scale bench needs it.');
  process.exit(1);
}

// Everything started is stopped on the way out, last first — also on failure and on Ctrl-C.
const cleanups: Array<() => Promise<void>> = [];
async function cleanUp(): Promise<void> {
  for (const stop of cleanups.splice(0).reverse()) await stop().catch((err) => console.error(String(err)));
}
/** Register `thing` for clean-up; `release()` stops it now (a run's trio is torn down before the next). */
function own<T extends { stop(): Promise<void> }>(thing: T): T & { release(): Promise<void> } {
  const stop = () => thing.stop();
  cleanups.push(stop);
  return Object.assign(thing, {
    async release() {
      const i = cleanups.indexOf(stop);
      if (i >= 0) cleanups.splice(i, 1);
      await stop();
    },
  });
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping what the bench started…`);
    void cleanUp().finally(() => process.exit(130));
  });
}

const quantile = (xs: number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
};
const median = (xs: number[]) => quantile(xs, 0.5);
const fmt = (ms: number) => (Math.abs(ms) >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const ratio = (a: number, b: number) => (b > 0 && a >= 0 ? (a / b).toFixed(2) : 'n/a');
const at = (iso: string | null | undefined): number => {
  const t = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(t)) throw new Error(`not a time: ${iso}`);
  return t;
};
const startedAt = (b: Build): number => at(b.stages.find((s) => s.stage === 'bot-assignment')?.at);
const ended = (b: Build): boolean => b.status !== 'queued' && b.status !== 'running';

/** POST the ZIP; the clock reads just before the request and once its answer is in. */
async function upload(url: string, fileName: string, zip: Buffer) {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), fileName);
  const sent = Date.now();
  const res = await fetch(`${url}/api/upload`, { method: 'POST', body: form });
  if (!res.ok) throw new Error(`upload ${fileName}: ${res.status} ${await res.text()}`);
  const { buildId } = (await res.json()) as { buildId: string };
  return { buildId, sent, answered: Date.now() };
}

/** Wait for the builds to end; every one must have succeeded. */
async function untilSucceeded(url: string, ids: string[], timeoutMs: number): Promise<Build[]> {
  const api = coordinatorApi(url);
  const builds = await api.until(
    `${ids.length} build(s) to end`,
    async () => {
      const all = await Promise.all(ids.map((id) => api.build(id)));
      return all.every(ended) ? all : null;
    },
    timeoutMs,
  );
  for (const b of builds) {
    if (b.status !== 'succeeded')
      throw new Error(
        `build ${b.id} (${b.projectName}) ${b.status}: ${b.error?.message ?? 'no error recorded'}`,
      );
  }
  return builds;
}

/** A fresh Redis, a coordinator on it and `workers` workers (each --concurrency 1), all online. */
async function startFarm(workers: number) {
  const redis = own(await startRedis());
  const daemon = own(await startDaemon({ env: { FORGE_QUEUE_URL: redis.url } }));
  const started = await Promise.all(
    Array.from({ length: workers }, (_, i) =>
      startWorker({
        name: `w${i + 1}`,
        queueUrl: redis.url,
        coordinatorUrl: daemon.url,
        concurrency: 1,
      }).then(own),
    ),
  );
  const api = coordinatorApi(daemon.url);
  await api.until(`${workers} worker(s) online`, async () => {
    const listed = (await api.workers()).workers;
    return listed.filter((w) => w.status === 'online').length === workers;
  });
  return {
    url: daemon.url,
    async stop() {
      for (const w of started) await w.release();
      await daemon.release();
      await redis.release();
    },
  };
}

/** The Vite + React fixture as project `name`, with its own source (so no build is a cache hit). */
function viteProject(name: string): ProjectFiles {
  const files: ProjectFiles = {};
  for (const [file, content] of Object.entries(VITE_REACT_APP)) {
    const renamed = file.replace('vite-react-app/', `${name}/`);
    files[renamed] = file.endsWith('App.jsx')
      ? content.replace('Hello from Vite + React', `Hello from ${name}`)
      : content;
  }
  return files;
}

// A Vite build with a cold npm cache can take minutes; with a warm one it takes seconds.
const VITE_TIMEOUT_MS = 15 * 60_000;

interface FarmRun {
  wallMs: number;
  /** bot-assignment → endedAt of each build. */
  runMs: number[];
  perWorker: Map<string, number>;
}

/** N distinct Vite projects uploaded at once; wall time from the first upload to the last end. */
async function farmRun(workers: number, tag: string): Promise<FarmRun> {
  const farm = await startFarm(workers);
  try {
    const zips = Array.from({ length: BUILDS }, (_, i) => {
      const name = `scale-${tag}-${i + 1}`;
      return { fileName: `${name}.zip`, zip: makeZip(viteProject(name)) };
    });
    const first = Date.now();
    const uploads = await Promise.all(zips.map((z) => upload(farm.url, z.fileName, z.zip)));
    const builds = await untilSucceeded(
      farm.url,
      uploads.map((u) => u.buildId),
      VITE_TIMEOUT_MS,
    );
    const perWorker = new Map<string, number>();
    for (const b of builds) perWorker.set(b.worker ?? '?', (perWorker.get(b.worker ?? '?') ?? 0) + 1);
    return {
      wallMs: Math.max(...builds.map((b) => at(b.endedAt))) - first,
      runMs: builds.map((b) => at(b.endedAt) - startedAt(b)),
      perWorker,
    };
  } finally {
    await farm.stop();
  }
}

interface Latency {
  /** upload answered → bot-assignment */
  answered: number[];
  /** upload sent → bot-assignment */
  sent: number[];
  /** upload sent → endedAt */
  total: number[];
}

/** M hello-site uploads one after another, each waited to end. */
async function latencyRuns(url: string): Promise<Latency> {
  const zip = makeZip(PROJECTS['hello-site']!);
  const out: Latency = { answered: [], sent: [], total: [] };
  for (let i = 0; i < LATENCY; i++) {
    const u = await upload(url, 'hello-site.zip', zip);
    const [b] = await untilSucceeded(url, [u.buildId], 60_000);
    out.answered.push(startedAt(b!) - u.answered);
    out.sent.push(startedAt(b!) - u.sent);
    out.total.push(at(b!.endedAt) - u.sent);
  }
  return out;
}

try {
  console.error(
    `scale bench: ${BUILDS} Vite + React builds × ${RUNS} run(s) per configuration, ${LATENCY} latency builds`,
  );

  // Warm the package caches under the user's HOME (workers build with it) on a farm of its own.
  let t = Date.now();
  {
    const farm = await startFarm(1);
    try {
      const { buildId } = await upload(farm.url, 'scale-warm-up.zip', makeZip(viteProject('scale-warm-up')));
      await untilSucceeded(farm.url, [buildId], VITE_TIMEOUT_MS);
    } finally {
      await farm.stop();
    }
  }
  console.error(`  warm-up build: ${fmt(Date.now() - t)}`);

  const farms = new Map<number, FarmRun[]>([
    [1, []],
    [2, []],
  ]);
  for (let run = 1; run <= RUNS; run++) {
    for (const workers of [1, 2]) {
      t = Date.now();
      const r = await farmRun(workers, `r${run}w${workers}`);
      farms.get(workers)!.push(r);
      console.error(
        `  run ${run}, ${workers} worker(s): ${fmt(r.wallMs)} (total ${fmt(Date.now() - t)} with start-up)`,
      );
    }
  }

  t = Date.now();
  let remote: Latency;
  {
    const farm = await startFarm(1);
    try {
      remote = await latencyRuns(farm.url);
    } finally {
      await farm.stop();
    }
  }
  const daemon = own(await startDaemon());
  let local: Latency;
  try {
    local = await latencyRuns(daemon.url);
  } finally {
    await daemon.release();
  }
  console.error(`  latency builds: ${fmt(Date.now() - t)}`);

  const one = farms.get(1)!;
  const two = farms.get(2)!;
  const wall1 = median(one.map((r) => r.wallMs));
  const wall2 = median(two.map((r) => r.wallMs));
  const run1 = median(one.flatMap((r) => r.runMs));
  const run2 = median(two.flatMap((r) => r.runMs));
  const split = (rs: FarmRun[]) =>
    rs
      .map((r) =>
        [...r.perWorker]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([w, n]) => `${w}: ${n}`)
          .join(', '),
      )
      .join(' / ');

  const cores = os.cpus().length;
  console.log(
    `\nMachine: ${cores} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}; ` +
      `daemon ${DAEMON_MAIN.slice(DAEMON_MAIN.indexOf('packages/'))}; ${RUNS === 1 ? '1 run' : `median of ${RUNS} runs`} per configuration.\n`,
  );
  console.log(
    `| ${BUILDS} Vite + React builds uploaded at once (dependency install + vite build) | 1 worker | 2 workers | 2 workers / 1 worker |`,
  );
  console.log('|---|---|---|---|');
  console.log(
    `| wall time, first upload → last build ended | ${fmt(wall1)} | ${fmt(wall2)} | ${ratio(wall2, wall1)} |`,
  );
  console.log(
    `| one build, started on its worker → ended (median) | ${fmt(run1)} | ${fmt(run2)} | ${ratio(run2, run1)} |`,
  );
  console.log(`| builds each worker took | ${split(one)} | ${split(two)} | |`);
  console.log(
    cores <= 2
      ? `\nOn this ${cores}-core machine both workers share the same ${cores} cores (and the coordinator and Redis run here too): the ratio shows the queue's overhead and this machine's ceiling, not what a farm of machines gains.\n`
      : `\nAll workers, the coordinator and Redis share this machine's ${cores} cores: a farm of machines gains more.\n`,
  );

  console.log(
    `| queue latency, ${LATENCY} hello-site uploads one after another | in-process daemon | coordinator + 1 worker | coordinator / in-process |`,
  );
  console.log('|---|---|---|---|');
  const row = (label: string, pick: (l: Latency) => number[], q: number) => {
    const a = quantile(pick(local), q);
    const b = quantile(pick(remote), q);
    console.log(`| ${label} | ${fmt(a)} | ${fmt(b)} | ${ratio(b, a)} |`);
  };
  row('upload answered → build started (bot-assignment), median', (l) => l.answered, 0.5);
  row('upload answered → build started (bot-assignment), p90', (l) => l.answered, 0.9);
  row('upload sent → build started, median', (l) => l.sent, 0.5);
  row('upload sent → build started, p90', (l) => l.sent, 0.9);
  row('upload sent → build ended, median', (l) => l.total, 0.5);
  console.log(
    '\nIn-process, the upload is answered once the build has been extracted and planned, so it has started before the answer (a negative time, no ratio). ' +
      'A coordinator extracts the upload, queues the job on Redis and answers `queued`; a worker then takes the job.',
  );
} finally {
  await cleanUp();
}
