#!/usr/bin/env node
// CLI cold start: `forge --version` against `node -e 0` (the floor any Node CLI pays), median of 20
// runs each after 2 warm-up runs, alternating so drift in the machine's load hits both alike.
//
// Run:  pnpm bench startup      (from the repo root; needs `pnpm build`)
//   or: node packages/cli/bench/startup.bench.mjs [--runs N]
// What it guards: the entry chunk loads commander and little else (no zod, ws, Ink); every command's
// heavy modules are dynamic imports. `forge --help` is measured too (it builds the whole program).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const forge = fileURLToPath(new URL('../bin/forge.js', import.meta.url));
const dist = fileURLToPath(new URL('../dist/forge.js', import.meta.url));
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 20;
const WARMUP = 2;

if (!existsSync(dist)) {
  console.error('The forge CLI is not built: run `pnpm build` first.');
  process.exit(1);
}

const cases = [
  { label: 'node -e 0', argv: ['-e', '0'] },
  { label: 'forge --version', argv: [forge, '--version'] },
  { label: 'forge --help', argv: [forge, '--help'] },
];

function time(argv) {
  const start = process.hrtime.bigint();
  const res = spawnSync(process.execPath, argv, { stdio: ['ignore', 'ignore', 'inherit'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (res.status !== 0) throw new Error(`${argv.join(' ')} exited with ${res.status}`);
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const samples = cases.map(() => []);
for (let i = 0; i < WARMUP + runs; i++) {
  cases.forEach((c, j) => {
    const ms = time(c.argv);
    if (i >= WARMUP) samples[j].push(ms);
  });
}

const floor = median(samples[0]);
console.log(`Node ${process.version}, ${runs} runs each (median, min-max)\n`);
console.table(
  cases.map((c, j) => ({
    command: c.label,
    median: `${median(samples[j]).toFixed(1)} ms`,
    'min-max': `${Math.min(...samples[j]).toFixed(1)}-${Math.max(...samples[j]).toFixed(1)} ms`,
    'vs node -e 0': `${(median(samples[j]) / floor).toFixed(2)}x`,
    'over node -e 0': `+${(median(samples[j]) - floor).toFixed(1)} ms`,
  })),
);
