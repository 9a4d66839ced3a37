// Static file benchmark (reported as ratios, never asserted): one 200 KiB asset over 8 keep-alive
// connections, Forge vs a bare node:http server that stats the file and pipes fs.createReadStream
// into the response (the "by hand" reference of shared PERFORMANCE.md).
// Bar: Forge's static preview and web app keep at least 0.9× the reference's throughput.
//   - "static preview": startStaticPreview, what a built site's preview answers with;
//   - "web app": the daemon's request handler serving the built workspace (every request also passes the
//     Host/Origin checks and the app's middleware).
// Forge as it ships: bench/static-serve.ts is bundled with tsup first (npm packages external, our
// TypeScript bundled, like the daemon's dist/), since running the TypeScript through tsx's loader
// costs this closure-heavy code ~30 % of its speed. Each run starts its server in a fresh process
// and aims the load client (bench/http-load.mjs, another process) at it on loopback: 0.5 s warm-up,
// then the measured seconds.
// Each round runs every server once, in the opposite order every other round; ratios are taken within
// a round (neighbours in time share the machine's load) and their median reported.
// Two figures per server: requests per second, and the server process's CPU time per request. On a
// shared 2-core machine throughput swings with other work; CPU per request much less.
// Run: pnpm bench static   Options: --rounds N (default 9), --seconds S (default 2), --connections C (8).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) || fallback : fallback;
};
const rounds = opt('rounds', 9);
const seconds = opt('seconds', 2);
const connections = opt('connections', 8);
const ASSET = 'assets/index-abc12345.js';
const ASSET_BYTES = 200 * 1024;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const pkgDir = here('..');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-bench-static-'));
const root = path.join(work, 'dist');
fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>bench</title>');
fs.writeFileSync(path.join(root, ASSET), randomBytes(ASSET_BYTES));

/**
 * Bundles static-serve.ts into a scratch folder inside the package (so its npm imports resolve from
 * the package's node_modules); returns the bundle's path.
 */
async function buildServer(): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(pkgDir, '.bench-static-'));
  scratch.push(outDir);
  await build({
    entry: { 'static-serve': here('./static-serve.ts') },
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    skipNodeModulesBundle: true,
    noExternal: [/^@forge\//],
    config: false,
    dts: false,
    silent: true,
  });
  return path.join(outDir, 'static-serve.js');
}

const scratch: string[] = [work];
let serverScript = '';

/** A server process (static-serve.ts) and a way to ask it for its CPU time. */
interface Serving {
  url: string;
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

let homes = 0;
async function serve(kind: string): Promise<Serving> {
  const home = path.join(work, `home-${homes++}`);
  fs.mkdirSync(home);
  const child = spawn(process.execPath, [serverScript, kind, root, home], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const line = await replies.next();
    if (line.done) throw new Error(`static-serve ${kind} ended early`);
    return JSON.parse(line.value) as Record<string, unknown>;
  };
  const { url } = (await next()) as { url: string };
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return {
    url,
    cpu: async () => {
      child.stdin.write('cpu\n');
      return (await next()).cpu as number;
    },
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  statuses: Record<string, number>;
}

function load(url: string, secs: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [here('./http-load.mjs'), url, String(connections), String(secs)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`http-load exited with ${code}`));
      else resolve(JSON.parse(out) as LoadResult);
    });
  });
}

const servers: Array<[kind: string, label: string]> = [
  ['by-hand', 'node:http + fs stream (by hand)'],
  ['preview', 'Forge static preview'],
  ['web', 'Forge web app (daemon)'],
];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  serverScript = await buildServer();
  const rates = new Map<string, number[]>(servers.map(([kind]) => [kind, []]));
  const cpu = new Map<string, number[]>(servers.map(([kind]) => [kind, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [kind] of round % 2 === 0 ? servers : [...servers].reverse()) {
      const server = await serve(kind);
      try {
        const url = `${server.url}/${ASSET}`;
        await load(url, 0.5);
        const before = await server.cpu();
        const result = await load(url, seconds);
        const used = (await server.cpu()) - before;
        const ok = result.statuses['200'] ?? 0;
        if (result.errors > 0 || ok !== result.requests) {
          throw new Error(`${kind}: ${JSON.stringify(result)} (expected only 200s)`);
        }
        rates.get(kind)!.push(result.requests / result.seconds);
        cpu.get(kind)!.push(used / result.requests);
      } finally {
        await server.stop();
      }
    }
  }
  const byHandRates = rates.get('by-hand')!;
  const byHandCpu = cpu.get('by-hand')!;
  /** Median over rounds of this server's figure against the reference's in the same round. */
  const paired = (xs: number[], refs: number[], lowerIsBetter: boolean) =>
    median(xs.map((x, i) => (lowerIsBetter ? refs[i]! / x : x / refs[i]!)));

  console.log(
    `${ASSET_BYTES / 1024} KiB file, ${connections} keep-alive connections, ${seconds} s per run, ` +
      `${rounds} rounds (node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)})`,
  );
  console.log('| server | req/s (runs) | median req/s | ÷ by hand | CPU µs/request | by hand ÷ this |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [kind, label] of servers) {
    const xs = rates.get(kind)!;
    const cs = cpu.get(kind)!;
    console.log(
      `| ${label} | ${xs.map((x) => x.toFixed(0)).join(' ')} | ${median(xs).toFixed(0)} ` +
        `| ${paired(xs, byHandRates, false).toFixed(2)} | ${median(cs).toFixed(0)} ` +
        `| ${paired(cs, byHandCpu, true).toFixed(2)} |`,
    );
  }
  for (const [kind, label] of [
    ['preview', 'static preview'],
    ['web', 'web app'],
  ] as const) {
    const ratio = paired(rates.get(kind)!, byHandRates, false);
    const ratioCpu = paired(cpu.get(kind)!, byHandCpu, true);
    console.log(
      `bar: ${label} ≥ 0.9× by hand → ${ratio >= 0.9 ? 'met' : 'MISSED'} ` +
        `(throughput ${ratio.toFixed(2)}, CPU per request ${ratioCpu.toFixed(2)})`,
    );
  }
}

try {
  await main();
} finally {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
}
