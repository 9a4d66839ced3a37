/**
 * Bad input and fuzzing, long version (docs/reliability.md): the CI property tests of
 * test/reliability/fuzz.test.ts with many more runs (same properties, same fixed seed unless given),
 * then the bad-input suite. Prints one report-card row per file; exits 1 on any failure.
 * Run: node --import tsx packages/daemon/bench/reliability/bad-input.ts [runs] [seed]
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 100_000);
const seed = process.argv[3];
const root = fileURLToPath(new URL('../../../../', import.meta.url));
let failed = 0;
/** Colour codes in vitest's summary line. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

for (const file of ['test/reliability/fuzz.test.ts', 'test/reliability/bad-input.test.ts']) {
  const started = Date.now();
  const vitest = [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--config',
    'vitest.workspace.ts',
    '--project',
    'reliability',
  ];
  const res = spawnSync(process.execPath, [...vitest, file, '--testTimeout', '1800000'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    env: { ...process.env, FORGE_FUZZ_RUNS: String(runs), ...(seed ? { FORGE_FUZZ_SEED: seed } : {}) },
  });
  const tests = /Tests\s+(.*)/.exec(res.stdout.replace(ANSI, ''))?.[1]?.trim() ?? '?';
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `| ${file} | ${runs} fuzz runs (HTTP ${Math.max(50, Math.round(runs / 16))}) | ${tests} | ${seconds} s |`,
  );
  if (res.status !== 0) {
    failed++;
    console.log(res.stdout);
  }
}
process.exit(failed ? 1 : 0);
