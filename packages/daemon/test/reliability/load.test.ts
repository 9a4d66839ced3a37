// Load (docs/reliability.md#load): a real load tool (autocannon) on loopback against the daemon as its own
// process, over the file, status and build APIs, while log-flooding builds stream to 100 /ws clients of which
// one never reads. Asserts correctness only (no timing ratios); the long version with the figures is
// bench/reliability/load.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runLoadScenario } from '../../bench/reliability/load-harness.ts';
import { MAX_IN_FLIGHT_REQUESTS, OVERLOADED_RETRY_AFTER_SECONDS } from '../../src/http/load-shedding.ts';
import { cleanup, rawRequest, startTestApp, tempDir } from '../helpers.ts';
import { spawnDaemon } from '../process-helpers.ts';

afterEach(cleanup);

/** Far above the ~200-300 MB the daemon (run from source through tsx) uses under this load. */
const RSS_BOUND_MB = 700;

describe('load shedding', () => {
  it('refuses with 503 OVERLOADED + Retry-After past the in-flight cap, keeps /api/health, recovers', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived = 0;
    const app = await startTestApp({
      registerRoutes: (router) =>
        router.get('/api/test/hold', async (_req, res) => {
          arrived++;
          await held;
          res.json({ ok: true });
        }),
    });
    const holding = Array.from({ length: MAX_IN_FLIGHT_REQUESTS }, () =>
      rawRequest(app.port, { path: '/api/test/hold' }),
    );
    await expect.poll(() => arrived, { timeout: 20_000 }).toBe(MAX_IN_FLIGHT_REQUESTS);

    const refused = await rawRequest(app.port, { path: '/api/files/structure' });
    expect(refused.status).toBe(503);
    expect(refused.json()).toMatchObject({ code: 'OVERLOADED' });
    expect(refused.headers['retry-after']).toBe(String(OVERLOADED_RETRY_AFTER_SECONDS));
    const health = await rawRequest(app.port, { path: '/api/health' });
    expect(health.status).toBe(200);

    release();
    for (const answer of await Promise.all(holding)) expect(answer.status).toBe(200);
    expect((await rawRequest(app.port, { path: '/api/settings' })).status).toBe(200);
  });
});

describe('load: file/status/build APIs + 100 /ws clients during log floods', () => {
  it('answers or sheds (503 OVERLOADED + Retry-After), keeps /api/health up, drops the reader that never reads', async () => {
    const cwd = tempDir('forge-load-');
    const home = path.join(cwd, 'home');
    fs.mkdirSync(home);
    const daemon = spawnDaemon(['run', '--port', '0'], { home, cwd });
    const url = await daemon.url;

    const report = await runLoadScenario({
      url,
      pid: daemon.child.pid!,
      floods: 3,
      floodMs: 3_000,
      loadSeconds: 6,
      fileConnections: 250,
      statusConnections: 100,
      saves: 100,
      buildStarts: 10,
      wsClients: 100,
    });
    const summary = JSON.stringify({ ...report, bad5xx: report.bad5xx.slice(0, 3) });

    // Hundreds of concurrent requests really ran in EVERY group (each group has its own load thread:
    // sharing one, the second big group was starved to a handful), and nothing failed but
    // deliberate refusals.
    const { files, status, saves, builds } = report.groups;
    expect(files.requests + status.requests, summary).toBeGreaterThan(300);
    expect(files.requests, summary).toBeGreaterThan(50);
    expect(status.requests, summary).toBeGreaterThan(50);
    expect(saves.requests, summary).toBeGreaterThan(0);
    expect(builds.requests, summary).toBeGreaterThan(0);
    expect(report.bad5xx, summary).toEqual([]);
    for (const group of [files, status, saves, builds]) {
      expect(group.errors, summary).toBe(0);
      expect(group.timeouts, summary).toBe(0);
      for (const code of Object.keys(group.statuses)) expect(['200', '503'], summary).toContain(code);
    }
    // Every 503 counted above was OVERLOADED with a Retry-After (anything else lands in bad5xx).
    const refused = [files, status, saves, builds].reduce((n, g) => n + (g.statuses['503'] ?? 0), 0);
    expect(report.overloaded, summary).toBe(refused);
    expect(saves.statuses['200'] ?? 0, summary).toBeGreaterThan(0);
    expect(builds.statuses['200'] ?? 0, summary).toBeGreaterThan(0);

    // Health answered every probe, throughout.
    expect(report.health.asked, summary).toBeGreaterThan(10);
    expect(report.health.failed, summary).toBe(0);
    expect(report.health.answered, summary).toBe(report.health.asked);

    // Every flood build ended, and every reading client stayed connected and got the last message.
    expect(
      report.floods.map((f) => f.status),
      summary,
    ).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(report.readers.lagSamples, summary).toBeGreaterThan(0);
    expect(report.readers.stillOpen, summary).toBe(99);
    expect(report.readers.sawLastMessage, summary).toBe(99);

    // The client that never read was dropped by the daemon (it could not have caught up: the floods
    // sent it far more than the /ws buffer cap plus what the kernel buffers), and memory stayed bounded.
    expect(report.slow.dropped, summary).toBe(true);
    expect(report.rss.maxMb, summary).toBeLessThan(RSS_BOUND_MB);
  }, 90_000);
});
