#!/usr/bin/env node
// Extraction benchmark: Forge's extractArchive against Info-ZIP `unzip -q`, median of 5 runs each.
// Cases: a create-vite app (16 files), a 5k-file source ZIP, a ~50 MB ZIP. Forge is measured as
// ExtractBot runs it — warm thread (thread-pool.ts keeps one between uploads), tree digest on — and
// beside that: without the digest, and cold (the first extraction, thread start and code load included).
//
// Run:  pnpm bench extract                                   (from the repo root; uses tsx)
//   or: node --import tsx packages/daemon/bench/extract.bench.mjs
// Options: --runs N (default 5), --tmpfs (work in /dev/shm instead of the system temp dir),
//          FORGE_BENCH_DIR=<dir> to pick the folder the scratch directory is created in.
// Needs Info-ZIP unzip on PATH (Debian/Ubuntu: apt-get update && apt-get install -y unzip).
//
// What it measures: Forge as it ships. The extract module and its thread are bundled with tsup into the
// scratch directory first (two entries, like the daemon's dist/), so the thread starts from plain JS.
// Each run extracts into a fresh directory, and nothing is deleted until the end: on these disks,
// creating many files right after deleting many is 10-13x slower (PERFORMANCE.md).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'tsup';
import { forgeZip, makeZip } from '@forge/testing';
import { CREATE_VITE_APP } from './create-vite-app.ts';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 5;
const parent = process.env.FORGE_BENCH_DIR ?? (args.includes('--tmpfs') ? '/dev/shm' : os.tmpdir());

if (spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status !== 0) {
  console.error('Info-ZIP unzip is not installed (apt-get update && apt-get install -y unzip).');
  process.exit(1);
}

const root = mkdtempSync(path.join(parent, 'forge-extract-bench-'));
let seq = 0;
const fresh = (label) => path.join(root, 'out', `${label}-${seq++}`);

/** Bundles the module the way the daemon ships it: ESM, thread as its own entry beside the main one. */
async function buildForge() {
  const outDir = path.join(root, 'forge-dist');
  await build({
    entry: {
      index: path.join(pkgDir, 'src/capabilities/extract/index.ts'),
      'extract-thread': path.join(pkgDir, 'src/capabilities/extract/extract-thread.ts'),
    },
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    // Self-contained in the scratch dir (npm deps cannot be resolved from there); CommonJS deps such as
    // adm-zip need a real `require` inside an ESM bundle.
    noExternal: [/.*/],
    banner: {
      js: "import { createRequire as __forgeCreateRequire } from 'node:module'; const require = __forgeCreateRequire(import.meta.url);",
    },
    config: false,
    dts: false,
    silent: true,
  });
  writeFileSync(path.join(outDir, 'package.json'), '{ "type": "module" }\n');
  return import(pathToFileURL(path.join(outDir, 'index.js')).href);
}

/** Source-like text: mostly keywords and identifiers (compresses ~4x like real code), unique per file. */
function sourceText(i, bytes) {
  const words = [
    'const',
    'return',
    'import',
    'export',
    'function',
    'await',
    'props',
    'state',
    'value',
    'render',
  ];
  const salt = randomBytes(16).toString('hex');
  let out = `// module ${i} ${salt}\n`;
  for (let n = 0; out.length < bytes; n++) {
    const w = words[(n * 7 + i) % words.length];
    const id = n % 13 === 0 ? randomBytes(3).toString('hex') : `${w}${(n * 31 + i) % 200}`;
    out += `  ${w} ${id} = ${words[(n * 3) % words.length]}(${n % 97}, '${id}');\n`;
  }
  return out.slice(0, bytes);
}

function sourceZip() {
  const entries = [{ name: 'project/package.json', data: '{ "name": "bench-project", "private": true }\n' }];
  for (let i = 0; entries.length < 5_000; i++) {
    const dir = `project/src/feature-${i % 50}/part-${Math.floor(i / 50) % 10}`;
    // 200 B to 8 KB, about 4 KB on average, like the files of a typical web project.
    const size = 200 + ((i * 2_654_435_761) % 7_800);
    entries.push({ name: `${dir}/module-${i}.ts`, data: sourceText(i, size) });
  }
  return forgeZip(entries);
}

function largeZip() {
  const entries = [];
  for (let i = 0; i < 44; i++)
    entries.push({ name: `assets/media/clip-${i}.bin`, data: randomBytes(1024 * 1024) });
  for (let i = 0; i < 300; i++) entries.push({ name: `src/file-${i}.js`, data: sourceText(i, 40_000) });
  return forgeZip(entries);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;

async function main() {
  console.log(`scratch: ${root}  (node ${process.version}, ${os.cpus().length} cpus, ${runs} runs each)`);
  const forge = await buildForge();
  const cases = [
    { label: 'create-vite app', bytes: makeZip(CREATE_VITE_APP) },
    { label: '5k-file source ZIP', bytes: sourceZip() },
    { label: '~50 MB ZIP', bytes: largeZip() },
  ];
  const rows = [];
  for (const c of cases) {
    const zipPath = path.join(root, `${c.label.replace(/\W+/g, '-')}.zip`);
    writeFileSync(zipPath, c.bytes);
    const times = { unzip: [], warm: [], noHash: [], cold: [] };
    let files = 0;
    const forgeRun = async (list, opts) => {
      const t = performance.now();
      const result = await forge.extractArchive(zipPath, {
        targetDir: fresh('forge'),
        workDir: fresh('work'),
        ...opts,
      });
      list.push(performance.now() - t);
      files = result.fileCount;
    };
    // Alternate the variants so drift in the machine's load hits all alike.
    for (let r = 0; r < runs; r++) {
      const uDir = fresh('unzip');
      mkdirSync(uDir, { recursive: true });
      const t = performance.now();
      const res = spawnSync('unzip', ['-q', zipPath, '-d', uDir], { stdio: 'inherit' });
      times.unzip.push(performance.now() - t);
      if (res.status !== 0) throw new Error(`unzip failed with ${res.status}`);

      await forge.stopIdleExtractThread();
      await forgeRun(times.cold, { hash: true });
      await forgeRun(times.warm, { hash: true });
      await forgeRun(times.noHash, { hash: false });
    }
    const u = median(times.unzip);
    const f = median(times.warm);
    rows.push({
      case: c.label,
      'zip size': `${(c.bytes.length / 1024 / 1024).toFixed(c.bytes.length < 1024 * 1024 ? 3 : 1)} MB`,
      files,
      'unzip -q': ms(u),
      'Forge (warm)': ms(f),
      'Forge/unzip': `${(f / u).toFixed(2)}x`,
      'no digest': ms(median(times.noHash)),
      'cold thread': ms(median(times.cold)),
    });
  }
  console.table(rows);
  await forge.stopIdleExtractThread();
  await forge.settleBackgroundRemovals();
}

try {
  await main();
} finally {
  if (existsSync(root)) rmSync(root, { recursive: true, force: true });
}
