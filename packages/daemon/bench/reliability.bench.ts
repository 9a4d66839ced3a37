// pnpm bench reliability: the long versions of the hostile-world suite (docs/reliability.md), one after the
// other, each in its own process so one's load or leftovers never touch the next. The CI suite is
// packages/daemon/test/reliability/*.test.ts; these run the same faults longer and print the figures
// docs/reliability.md reports. A second argument filters: pnpm bench reliability load.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const dir = path.join(import.meta.dirname, 'reliability');
const filter = process.argv[2] ?? process.env.FORGE_BENCH_FILTER ?? '';
/** The benches, in the order of the report card; the other files of the folder are their helpers. */
const BENCHES = ['bad-input.ts', 'disk-full.ts', 'crash.ts', 'runaway.ts', 'load.ts'];
const present = new Set(readdirSync(dir));
const missing = BENCHES.filter((f) => !present.has(f));
if (missing.length > 0) throw new Error(`reliability benches missing: ${missing.join(', ')}`);
const files = BENCHES.filter((f) => f.includes(filter));
if (files.length === 0) {
  console.error(`No reliability bench matches "${filter}" in ${dir}.`);
  process.exit(2);
}
const failed: string[] = [];
for (const file of files) {
  console.log(`\n### reliability/${file}\n`);
  const started = Date.now();
  const res = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { stdio: 'inherit' });
  console.log(
    `\n(${file}: exit ${res.status ?? res.signal}, ${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  if (res.status !== 0) failed.push(file);
}
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
