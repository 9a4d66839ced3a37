#!/usr/bin/env node
// CLI cold start against `node -e 0` (the floor any Node CLI pays): `forge --version`, `--help`, and
// the read commands against a real daemon with a few builds in its store; then an identical
// re-upload followed to its end (`upload --wait --json`). Median of N runs each after 2 warm-up
// runs, the commands alternating so drift in the machine's load hits all alike.
//
// Run:  pnpm bench startup      (from the repo root; needs `pnpm build`)
//   or: node packages/cli/bench/startup.bench.mjs [--runs N]
// Goals (docs/performance.md): --version ≤ 1.3×, every read command ≤ 1.5× `node -e 0`.
// What it guards: the entry loads almost nothing; the read commands load no commander (read-path.ts)
// and no zod (the protocol's facts are precomputed at build time) and talk node:http, not fetch.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';

const forge = fileURLToPath(new URL('../bin/forge.js', import.meta.url));
const dist = fileURLToPath(new URL('../dist/forge.js', import.meta.url));
const daemonMain = fileURLToPath(new URL('../../daemon/dist/main.js', import.meta.url));
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 15;
const WARMUP = 2;

for (const file of [dist, daemonMain]) {
  if (!existsSync(file)) {
    console.error(`${file} is missing: run \`pnpm build\` first.`);
    process.exit(1);
  }
}

// A daemon of its own: temporary FORGE_HOME, any free port, a working directory without a config.
const home = mkdtempSync(join(tmpdir(), 'forge-bench-home-'));
const cwd = mkdtempSync(join(tmpdir(), 'forge-bench-cwd-'));
const env = { ...process.env, FORGE_HOME: home, FORGE_PORT: '0' };
for (const key of [
  'CI',
  'FORGE_URL',
  'BOT_SERVICE_URL',
  'FORGE_TOKEN',
  'FORGE_AUTOSTART',
  'FORGE_HOST',
  'NO_COLOR',
]) {
  delete env[key];
}

const run = (argv, { check = true } = {}) => {
  const res = spawnSync(process.execPath, argv, { cwd, env, encoding: 'utf8' });
  if (check && res.status !== 0) {
    throw new Error(`${argv.join(' ')} exited with ${res.status}\n${res.stdout}\n${res.stderr}`);
  }
  return res;
};

/** A ZIP of stored (or deflated) files, written out here so the bench needs no TypeScript helpers. */
function zip(files) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (buf) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const packed = deflateRawSync(data);
    const nameBuf = Buffer.from(name);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(crc32(data), 14);
    head.writeUInt32LE(packed.length, 18);
    head.writeUInt32LE(data.length, 22);
    head.writeUInt16LE(nameBuf.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(head, nameBuf, packed);
    centrals.push(central, nameBuf);
    offset += head.length + nameBuf.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

function time(argv) {
  const start = process.hrtime.bigint();
  const res = spawnSync(process.execPath, argv, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (res.status !== 0) throw new Error(`${argv.join(' ')} exited with ${res.status}\n${res.stderr}`);
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function measure(cases) {
  const samples = cases.map(() => []);
  for (let i = 0; i < WARMUP + runs; i++) {
    cases.forEach((c, j) => {
      const ms = time(c.argv);
      if (i >= WARMUP) samples[j].push(ms);
    });
  }
  return samples;
}

let started = false;
try {
  run([forge, 'daemon', 'start']);
  started = true;
  writeFileSync(
    join(cwd, 'site.zip'),
    zip({
      'index.html': '<!doctype html><link rel="stylesheet" href="style.css"><h1>Forge bench</h1>\n',
      'style.css': 'h1 { color: rebeccapurple; }\n',
    }),
  );
  let last;
  for (let i = 0; i < 3; i++)
    last = JSON.parse(run([forge, 'upload', 'site.zip', '--wait', '--json']).stdout);
  const buildId = last.buildId;

  const reads = [
    ['builds'],
    ['builds', '--json'],
    ['status'],
    ['status', '--json'],
    ['logs', buildId],
    ['bots'],
    ['plan', 'site'],
    ['settings', 'get'],
    ['config', 'print'],
    ['daemon', 'status'],
  ];
  const floor = { label: 'node -e 0', argv: ['-e', '0'] };
  const startup = [
    floor,
    { label: 'forge --version', argv: [forge, '--version'], goal: 1.3 },
    { label: 'forge --help', argv: [forge, '--help'] },
    ...reads.map((argv) => ({ label: `forge ${argv.join(' ')}`, argv: [forge, ...argv], goal: 1.5 })),
  ];
  // Measured apart, after the reads: every upload adds a build the reads would then list.
  const upload = [
    floor,
    {
      label: `forge upload site.zip --wait --json (re-upload${last.cacheHit ? ', cache hit' : ''})`,
      argv: [forge, 'upload', 'site.zip', '--wait', '--json'],
    },
  ];
  const rows = [];
  for (const cases of [startup, upload]) {
    const samples = measure(cases);
    const base = median(samples[0]);
    cases.forEach((c, j) => {
      if (j === 0 && rows.length > 0) return;
      const ratio = median(samples[j]) / base;
      rows.push({
        command: c.label,
        median: `${median(samples[j]).toFixed(1)} ms`,
        'min-max': `${Math.min(...samples[j]).toFixed(1)}-${Math.max(...samples[j]).toFixed(1)} ms`,
        'vs node -e 0': `${ratio.toFixed(2)}x`,
        goal: c.goal ? `≤ ${c.goal}x ${ratio <= c.goal ? 'ok' : 'MISSED'}` : '',
      });
    });
  }
  console.log(`Node ${process.version}, ${runs} runs each (median, min-max); a daemon with 3 builds\n`);
  console.table(rows);
} finally {
  if (started) run([forge, 'daemon', 'stop'], { check: false });
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}
