#!/usr/bin/env node
// pnpm bench: runs every packages/*/bench/*.bench.{mjs,ts} in turn (tsx handles TypeScript).
// Each bench prints its own table of Forge vs a reference, as ratios. Filter: pnpm bench <substring>.
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const filter = process.argv[2] ?? '';
const benches = [];
for (const pkg of readdirSync(join(root, 'packages'))) {
  const dir = join(root, 'packages', pkg, 'bench');
  if (!existsSync(dir)) continue;
  for (const f of readdirSync(dir).sort()) {
    if (/\.bench\.(mjs|ts)$/.test(f) && `${pkg}/${f}`.includes(filter)) benches.push(join(dir, f));
  }
}
if (benches.length === 0) {
  console.error(`No benchmark matches "${filter}".`);
  process.exit(2);
}
let failed = 0;
for (const file of benches) {
  console.log(`\n## ${file.slice(root.length)}\n`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
