import { describe, expect, it } from 'vitest';
import { ACTIVITIES, runCrashCampaign, type CampaignOptions } from './crash-harness.ts';

/**
 * Crash safety (docs/reliability.md): the daemon (a real child process) is killed -9 in the middle of a
 * site's extraction, a stream of 1 MB saves, a running build and a stream of settings writes, half the kills
 * on an observed event, half after a delay from a fixed-seed PRNG; after each, the next start must be clean
 * (see crash-harness.ts for every check). Long version: bench/reliability/crash.ts.
 */
const campaign = (options: CampaignOptions) =>
  runCrashCampaign({ ...options, log: (line) => process.env.FORGE_CRASH_VERBOSE && console.log(line) });

describe('crash safety: kill -9 in the middle of work', () => {
  it('restarts clean after every kill: no build in flight, no torn file, no orphan, the store whole, tmp swept', async () => {
    const report = await campaign({ kills: 6, seed: 13 });
    expect(report.failures).toEqual([]);
    expect(report.restarts).toBe(6);
    // Each activity was caught mid-way by kills; the killed builds ended interrupted.
    for (const activity of ACTIVITIES) expect(report.hits[activity], activity).toBeGreaterThanOrEqual(2);
    expect(report.buildsInterrupted).toBeGreaterThanOrEqual(3);
    expect(report.savesChecked).toBeGreaterThanOrEqual(4);
  }, 180_000);

  it('leaves no process of an unsandboxed build alive: the next start kills what the dead daemon ran', async () => {
    // Without bubblewrap nothing takes a build down with the daemon: only the recovery sweep does.
    const report = await campaign({ kills: 4, seed: 1313, sandbox: false });
    expect(report.failures).toEqual([]);
    expect(report.restarts).toBe(4);
    expect(report.hits.build).toBeGreaterThanOrEqual(2);
    expect(report.buildsInterrupted).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
