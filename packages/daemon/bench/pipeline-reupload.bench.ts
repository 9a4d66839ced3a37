// End-to-end re-upload benchmark (docs/performance.md): an identical re-upload of a create-vite app, timed as
// a developer sees it — the CLI process `forge upload app.zip --wait --json`, from its start to its
// exit, against a daemon that already built the same source (a cache hit: ExtractBot, BlueprintBot,
// CacheBot, PreviewBot). Reported as ratios beside two references measured in the same run:
//   1. `node -e 0` + `unzip -q` of the same ZIP into a fresh folder (start a Node process, unpack);
//   2. `npm run build` by hand in the same project with node_modules installed.
// Also reported: ExtractBot's own step time (from the JSON result), median and the cold first one.
//
// Run: pnpm bench reupload   (also part of `pnpm bench pipeline`; needs `pnpm build`, npm's registry
//      for the first build, and Info-ZIP unzip on PATH)
// Options: --runs N (default 5), --tmpfs (scratch in /dev/shm), FORGE_BENCH_DIR=<dir>.
// Every run unpacks into a fresh folder and the daemon's home is fresh: on these disks creating many
// files soon after deleting many is 10x slower (PERFORMANCE.md).
import { spawnSync } from 'node:child_process';
import { startBenchDaemon } from './bench-daemon.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeZip } from '@forge/testing';
import { CREATE_VITE_APP } from './create-vite-app.ts';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const daemonMain = path.join(pkgDir, 'dist/main.js');
const cliBin = path.join(pkgDir, '../cli/bin/forge.js');
for (const [file, what] of [
  [daemonMain, 'packages/daemon/dist/main.js'],
  [path.join(pkgDir, '../cli/dist/forge.js'), 'packages/cli/dist/forge.js'],
] as const) {
  if (!fs.existsSync(file)) {
    console.error(`${what} is missing: run pnpm build first.`);
    process.exit(1);
  }
}
if (spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status !== 0) {
  console.error('Info-ZIP unzip is not installed (apt-get update && apt-get install -y unzip).');
  process.exit(1);
}

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 5;
const parent = process.env.FORGE_BENCH_DIR ?? (args.includes('--tmpfs') ? '/dev/shm' : os.tmpdir());
const scratch = fs.mkdtempSync(path.join(parent, 'forge-bench-reupload-'));
const home = path.join(scratch, 'home');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

interface UploadJson {
  status: string;
  cacheHit?: boolean;
  durations?: Record<string, number>;
}

/** Runs a command to its exit; returns the wall time from spawn to exit and its stdout. */
function timed(cmd: string, argv: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const t = performance.now();
  const r = spawnSync(cmd, argv, {
    cwd: opts.cwd ?? scratch,
    env: opts.env ?? process.env,
    encoding: 'utf8',
  });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

const forgeEnv = { ...process.env, FORGE_HOME: home, NO_COLOR: '1' };
function forgeUpload(zip: string): { ms: number; result: UploadJson } {
  const { ms, stdout } = timed(process.execPath, [cliBin, 'upload', zip, '--wait', '--json'], {
    env: forgeEnv,
  });
  return { ms, result: JSON.parse(stdout) as UploadJson };
}

const startDaemon = () => startBenchDaemon(daemonMain, scratch, forgeEnv);

let seq = 0;
const fresh = (label: string) => path.join(scratch, 'out', `${label}-${seq++}`);

const daemon = await startDaemon();
try {
  const zip = path.join(scratch, 'vite-react-ts.zip');
  fs.writeFileSync(zip, makeZip(CREATE_VITE_APP));

  // The first upload installs and builds (not counted); every later identical one is a cache hit.
  const first = forgeUpload(zip);
  if (first.result.status !== 'succeeded') throw new Error(`first build ${first.result.status}`);
  const extractCold = first.result.durations?.extract ?? NaN;

  // The project as the daemon built it, for the `npm run build` reference: same source, same install.
  const byHand = fresh('by-hand');
  fs.cpSync(path.join(home, 'projects', 'vite-react-ts'), byHand, { recursive: true });
  const deps = path.join(home, 'deps', 'vite-react-ts', 'node_modules');
  if (!fs.existsSync(path.join(byHand, 'node_modules')) && fs.existsSync(deps)) {
    fs.cpSync(deps, path.join(byHand, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  }
  const npmBuild = fs.existsSync(path.join(byHand, 'node_modules'));

  const forge: number[] = [];
  const extract: number[] = [];
  const unzipNode: number[] = [];
  const builds: number[] = [];
  // Alternate the sides so drift in the machine's load hits all alike.
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    timed(process.execPath, ['-e', '0']);
    const dir = fresh('unzip');
    timed('unzip', ['-q', zip, '-d', dir]);
    unzipNode.push(performance.now() - t);

    const r = forgeUpload(zip);
    if (r.result.status !== 'succeeded' || r.result.cacheHit !== true) {
      throw new Error(`expected a cache hit, got ${JSON.stringify(r.result)}`);
    }
    forge.push(r.ms);
    extract.push(r.result.durations?.extract ?? NaN);

    if (npmBuild)
      builds.push(timed('npm', ['run', 'build'], { cwd: byHand, env: { ...process.env, CI: 'true' } }).ms);
  }

  const rows: string[][] = [
    [
      'identical re-upload: `forge upload --wait --json`, process start to exit (cache hit)',
      `\`node -e 0\` + \`unzip -q\`: ${fmt(median(unzipNode))}`,
      fmt(median(forge)),
      `${(median(forge) / median(unzipNode)).toFixed(2)}x`,
    ],
  ];
  if (npmBuild) {
    rows.push([
      'the same re-upload vs rebuilding by hand',
      `\`npm run build\`: ${fmt(median(builds))}`,
      fmt(median(forge)),
      `${(median(forge) / median(builds)).toFixed(2)}x`,
    ]);
  }
  rows.push([
    `ExtractBot step of the re-upload (${Object.keys(CREATE_VITE_APP).length} files; first upload, worker cold: ${fmt(extractCold)})`,
    `\`unzip -q\` alone: see \`pnpm bench extract\``,
    fmt(median(extract)),
    '',
  ]);
  console.log(`\nMachine: ${os.cpus().length} cores, Node ${process.version}; median of ${runs} runs.\n`);
  console.log('| work | reference | Forge | Forge / reference |');
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
} finally {
  await daemon.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}
