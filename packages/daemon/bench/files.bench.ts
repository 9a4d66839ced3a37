// File tree API benchmark (reported as a ratio, never asserted):
//   GET /api/files/structure for a generated 10k-file project vs `find <dir> -printf '%s %p\n'`
//   (the same walk with sizes, by hand), median of 5 after one warm-up each.
// Run: pnpm bench files   (in-process daemon from source; no build needed)
// Options: --files N (default 10000), --runs N (default 5).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { routes } from '@forge/shared';
import { createApp } from '../src/app.ts';
import { readTree } from '../src/features/files/tree.ts';
import { openStore, STORE_FILE } from '../src/store/store.ts';

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) || fallback : fallback;
};
const fileCount = opt('files', 10_000);
const runs = opt('runs', 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

// A fresh home (creating files soon after deleting many is slow on these disks: PERFORMANCE.md).
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-bench-files-'));
const project = path.join(home, 'projects', 'bench');

/** 10 areas × 10 modules × N/100 files, like a source tree; plus a node_modules the tree folds. */
function generate(): void {
  const perModule = Math.ceil(fileCount / 100);
  let written = 0;
  for (let a = 0; a < 10; a++) {
    for (let m = 0; m < 10; m++) {
      const dir = path.join(project, 'src', `area-${a}`, `module-${m}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let f = 0; f < perModule && written < fileCount; f++, written++) {
        fs.writeFileSync(path.join(dir, `file-${f}.ts`), `export const value${f} = ${f};\n`);
      }
    }
  }
  fs.mkdirSync(path.join(project, 'node_modules', 'react'), { recursive: true });
  fs.writeFileSync(path.join(project, 'node_modules', 'react', 'index.js'), '');
}

function timeFind(): number {
  const devNull = fs.openSync('/dev/null', 'w');
  try {
    const t = performance.now();
    const r = spawnSync('find', [project, '-printf', '%s %p\n'], { stdio: ['ignore', devNull, 'inherit'] });
    if (r.status !== 0) throw new Error('find failed');
    return performance.now() - t;
  } finally {
    fs.closeSync(devNull);
  }
}

async function main(): Promise<void> {
  generate();
  const store = openStore(path.join(home, STORE_FILE));
  const forge = createApp({
    config: { host: '127.0.0.1', allowedHosts: [], accessToken: null, webRoot: null, home },
    logger: pino({ level: 'silent' }),
    store,
    web: { mode: 'static', root: null },
    starterProject: false,
  });
  forge.services.repo.touchProject('bench', new Date());
  const server = http.createServer(forge.handle);
  await forge.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}${routes.fileStructure.path}?project=bench`;

  try {
    const timeApi = async (): Promise<{ ms: number; bytes: number; nodes: number }> => {
      const t = performance.now();
      const res = await fetch(url);
      const body = await res.text();
      const ms = performance.now() - t;
      if (res.status !== 200) throw new Error(`structure answered ${res.status}: ${body.slice(0, 200)}`);
      return { ms, bytes: Buffer.byteLength(body), nodes: (body.match(/"path":/g) ?? []).length };
    };
    const timeTree = async (): Promise<number> => {
      const t = performance.now();
      await readTree(project);
      return performance.now() - t;
    };

    // Warm-ups (page cache, JIT) are not counted. The first request also starts WatchBot on the
    // project, whose initial scan runs in the background: wait for it, as a dashboard left open would.
    timeFind();
    const first = await timeApi();
    const watchStart = performance.now();
    await forge.services.files.watchBot.ready('bench');
    const watchReady = performance.now() - watchStart;
    await timeTree();

    const find: number[] = [];
    const api: number[] = [];
    const tree: number[] = [];
    for (let i = 0; i < runs; i++) {
      find.push(timeFind());
      api.push((await timeApi()).ms);
      tree.push(await timeTree());
    }
    const ref = median(find);
    const rows: Array<[string, number]> = [
      ['GET /api/files/structure (HTTP, JSON)', median(api)],
      ['readTree() alone (walk + sizes)', median(tree)],
    ];
    console.log(
      `${fileCount} files, ${first.nodes} nodes, ${(first.bytes / 1024 / 1024).toFixed(2)} MB of JSON; median of ${runs}`,
    );
    console.log(`| work | find -printf | Forge | ratio |`);
    console.log(`| --- | --- | --- | --- |`);
    for (const [label, ms] of rows) {
      console.log(`| ${label} | ${fmt(ref)} | ${fmt(ms)} | ${(ms / ref).toFixed(2)} |`);
    }
    console.log(`first request (starts WatchBot): ${fmt(first.ms)}; WatchBot ready ${fmt(watchReady)} later`);
    console.log(`budget: structure API under 100 ms for 10k files → ${median(api) < 100 ? 'met' : 'MISSED'}`);
  } finally {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await forge.close();
    await closed;
    store.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

await main();
