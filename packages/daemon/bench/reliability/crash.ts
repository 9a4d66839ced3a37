/**
 * Crash safety, long version (docs/reliability.md): many kill -9s of a real daemon in the middle of
 * extraction, 1 MB saves, a build and settings writes, with and without the build sandbox; every restart
 * checked (see test/reliability/crash-harness.ts). Prints one report-card row per campaign; exits 1 on any
 * violated invariant. Run: node --import tsx packages/daemon/bench/reliability/crash.ts [kills] [seed]
 */
import { ACTIVITIES, runCrashCampaign } from '../../test/reliability/crash-harness.ts';

const kills = Number(process.argv[2] ?? 40);
const seed = Number(process.argv[3] ?? 2013);
let failed = 0;

for (const sandbox of [true, false]) {
  const started = Date.now();
  const report = await runCrashCampaign({
    kills: sandbox ? kills : Math.ceil(kills / 2),
    seed: sandbox ? seed : seed + 1,
    sandbox,
    maxRandomDelayMs: 2_000,
    log: (line) => console.log(`  ${line}`),
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const hits = ACTIVITIES.map((a) => `${a} ${report.hits[a]}`).join(', ');
  console.log(
    `\n| kill -9 mid-work (${sandbox ? 'sandboxed' : 'unsandboxed'} builds) | ${report.kills.length} kills, seed ${sandbox ? seed : seed + 1}; in flight: ${hits} | ` +
      `${report.restarts} restarts (${report.startMs.min}-${report.startMs.max} ms each) | ${report.failures.length} violations; ` +
      `${report.buildsInterrupted} builds interrupted, ${report.savesChecked} saves whole, tmp max ${report.maxTmpEntriesAfterKill} entries after a kill, swept to 0 | ${seconds} s |\n`,
  );
  for (const f of report.failures) console.log(`  FAIL ${f}`);
  if (report.failures.length) {
    console.log(`  FORGE_HOME kept for a post-mortem: ${report.home}`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
