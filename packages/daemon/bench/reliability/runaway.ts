/**
 * Long versions of test/reliability/runaway.test.ts, through the real command runner with its real
 * default caps: 10 million log lines (the 5 MB per-command output cap), and a build that means to write
 * 100 GB (stopped by the written-bytes cap, FORGE_BUILD_WRITE_MAX, 1 GB here so the disk is spared).
 * Run: node --import tsx packages/daemon/bench/reliability/runaway.ts
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runCommand } from '../../src/capabilities/exec/run-command.ts';
import { resourceLimits } from '../../src/capabilities/exec/resource-limits.ts';

const dir = await mkdtemp(join(tmpdir(), 'forge-runaway-bench-'));
try {
  await writeFile(
    join(dir, 'flood.js'),
    `const line = 'flood line with some padding to look like a chatty bundler\\n'; let i = 0;
     const out = () => { while (i < 10_000_000) { i++; if (!process.stdout.write(i + ' ' + line)) return process.stdout.once('drain', out); } };
     out();`,
  );
  let delivered = 0;
  let t0 = performance.now();
  const flood = await runCommand({
    argv: [process.execPath, 'flood.js'],
    cwd: dir,
    timeoutMs: 600_000,
    sandbox: true,
    onLine: () => delivered++,
  });
  console.log(
    `10M lines: ${flood.outcome} in ${Math.round(performance.now() - t0)} ms, ${(flood.outputBytes / 1e6).toFixed(0)} MB written, ` +
      `${delivered} lines delivered, ${(flood.droppedBytes / 1e6).toFixed(0)} MB dropped, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
  );

  await writeFile(
    join(dir, 'spill.js'),
    `const fs = require('fs'); fs.mkdirSync('dist', { recursive: true }); const chunk = Buffer.alloc(64 * 1024 * 1024, 7);
     for (let i = 0; i < 1600; i++) fs.writeFileSync('dist/part-' + i + '.bin', chunk); // 100 GB intent`,
  );
  const limits = { ...resourceLimits(), writtenBytes: 1024 ** 3 };
  t0 = performance.now();
  const spill = await runCommand({
    argv: [process.execPath, 'spill.js'],
    cwd: dir,
    timeoutMs: 600_000,
    sandbox: true,
    limits,
    onLine: () => {},
  });
  console.log(`100 GB intent: ${spill.outcome} in ${Math.round(performance.now() - t0)} ms: ${spill.error}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
