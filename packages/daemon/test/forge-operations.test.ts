import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BotInfo, ScanReport, TextAnswer, type UploadResult } from '@forge/shared';
import { createHealthBot, type HealthBot } from '../src/features/health/health-bot.ts';
import { NO_PROJECT_TEXT } from '../src/features/assistant/operations.ts';
import { cleanup, startTestApp, tempDir, type TestApp } from './helpers.ts';
import { makeZip, upload, watch, ZERO_DEP_BUILD } from './build-helpers.ts';

afterEach(cleanup);

const text = async (app: TestApp, op: 'blueprint' | 'workflow' | 'issues' | 'status'): Promise<string> => {
  const res = await fetch(`${app.url}/api/forge/${op}`);
  expect(res.status).toBe(200);
  return TextAnswer.parse(await res.json()).text;
};

const bots = async (app: TestApp): Promise<Map<string, BotInfo>> => {
  const list = BotInfo.array().parse(await (await fetch(`${app.url}/api/bots`)).json());
  return new Map(list.map((b) => [b.name, b]));
};

/** A project that builds in a second (no install) and has a few things ScanBot should find. */
const PROJECT = {
  ...ZERO_DEP_BUILD,
  'package.json': JSON.stringify(
    { name: 'zero', private: true, scripts: { build: 'node build.js', lint: 'node -e "process.exit(0)"' } },
    null,
    2,
  ),
  'src/party.js':
    "import confetti from 'canvas-confetti';\nimport path from 'node:path';\nexport const go = () => confetti(path.sep);\n",
  '.env': 'API_KEY=k3y-that-must-not-leak\n',
};

/**
 * HealthBot's verdict on a healthy daemon: all checks pass, unless the machine running the tests is
 * so busy that the daemon's own event loop lags past a second, which HealthBot then says, truly.
 */
const HEALTHY = /^(?:all checks passed|daemon slow: event loop p99 \d+ ms, memory \d+ MB)$/;

describe('Forge operations', () => {
  it('say plainly that there is no project yet, and still report the status', async () => {
    const app = await startTestApp();
    for (const op of ['blueprint', 'workflow', 'issues'] as const)
      expect(await text(app, op)).toBe(NO_PROJECT_TEXT);
    const status = await text(app, 'status');
    expect(status).toContain('Current project: none yet');
    expect(status).toMatch(/^Daemon: Forge \d+\.\d+\.\d+, up /m);
    // Busy while it answers: ForgeBot, which took the command, and HealthBot, which checks.
    expect(status).toMatch(
      /^Fleet: 25 bots: \d+ active, 2 busy, 0 in error, 0 standby; jobs: 0 running, 0 waiting for a slot\.$/m,
    );
    expect(status).toContain('Builds: 0 running, 0 queued.');
    expect(status).toMatch(/^Disk: [\d.]+ [GM]B free of [\d.]+ [GM]B \(\d+%\) where FORGE_HOME is/m);
    expect(status).toMatch(
      new RegExp(`^HealthBot: ${HEALTHY.source.slice(1, -1)} \\(checked \\d+ms ago\\)\\.$`, 'm'),
    );
  });

  it('answer with the blueprint, workflow, issues and status of the uploaded project, each as its bot', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const result = (await (await upload(app, makeZip('zero.zip', PROJECT))).json()) as UploadResult;
    const build = await live.finished(result.buildId!);
    expect(build.status).toBe('succeeded');

    const blueprint = await text(app, 'blueprint');
    expect(blueprint).toMatch(/^Blueprint of zero \(BlueprintBot read its files just now\)/);
    expect(blueprint).toMatch(/^ {2}build +npm run build$/m);
    expect(blueprint).toContain('Decisions');

    const workflow = await text(app, 'workflow');
    expect(workflow).toMatch(
      new RegExp(`^Workflow of zero: .*; times from build ${build.id} \\(succeeded, `, 'm'),
    );
    const order = [...workflow.matchAll(/^ ?\d+\. (\w+) +(\w+)/gm)].map((m) => `${m[1]}:${m[2]}`);
    expect(order.slice(0, 2)).toEqual(['extract:ExtractBot', 'detect:BlueprintBot']);
    expect(order).toContain('build:BuildBot');
    expect(order.indexOf('build:BuildBot')).toBeLessThan(order.indexOf('preview:PreviewBot'));
    expect(order.at(-1)).toBe('lint:LintBot');
    const buildStep = build.steps.find((s) => s.name === 'build')!;
    expect(workflow).toContain(`last: succeeded by BuildBot in ${formatMs(buildStep.durationMs!)}`);
    expect(workflow).toContain(`cache: cached now: the source and plan are those of build ${build.id}`);
    expect(workflow).toContain('autoRepair is on: RepairBot makes the safe repair');

    const issues = await text(app, 'issues');
    expect(issues).toMatch(/^ScanBot scanned zero: \d+ files read in /);
    expect(issues).toContain(
      '✖ error canvas-confetti is imported by src/party.js:1 but package.json does not declare it.',
    );
    expect(issues).toContain('.env:1 commits the value of API_KEY.');
    expect(issues).not.toContain('k3y-that');

    const status = await text(app, 'status');
    expect(status).toMatch(new RegExp(`^Current project: zero; last build ${build.id} succeeded in `, 'm'));
    // The build's preview is running, and HealthBot found it answering.
    expect(status).toContain('✔ previews: the running one answers');

    const cards = await bots(app);
    expect(cards.get('BlueprintBot')!.lastJob).toMatchObject({ label: 'blueprint zero', ok: true });
    expect(cards.get('WorkflowBot')!.lastJob).toMatchObject({
      ok: true,
      summary: expect.stringMatching(/^workflow of zero: \d+ steps$/),
    });
    expect(cards.get('ScanBot')!.lastJob).toMatchObject({
      label: 'scan zero',
      summary: expect.stringMatching(/^scanned zero: \d+ issues \(\d+ errors?\)$/),
    });
    const health = cards.get('HealthBot')!.lastJob!;
    expect(health.summary).toMatch(new RegExp(`^status: ${HEALTHY.source.slice(1, -1)}$`));
    expect(health.ok).toBe(health.summary === 'status: all checks passed');
    // ForgeBot took each command and handed it on; its card says the last one it answered.
    expect(cards.get('ForgeBot')!.lastJob).toMatchObject({ ok: true, summary: 'answered "status"' });
    expect(cards.get('ForgeBot')!.jobsRun).toBe(4);

    // The same scan as JSON, by project name.
    const scan = await fetch(`${app.url}/api/projects/zero/scan`);
    expect(scan.status).toBe(200);
    const report = ScanReport.parse(await scan.json());
    expect(report.projectName).toBe('zero');
    expect(report.issues).toContainEqual(
      expect.objectContaining({
        kind: 'undeclared-import',
        file: 'src/party.js',
        line: 1,
        severity: 'error',
      }),
    );
    expect(JSON.stringify(report)).not.toContain('k3y-that');
    const missing = await fetch(`${app.url}/api/projects/nope/scan`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'PROJECT_NOT_FOUND' });
  }, 60_000);
});

/** formatDuration as the workflow prints it. */
function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  return `${Math.floor(ms / 60_000)}m${Math.floor((ms % 60_000) / 1000)
    .toString()
    .padStart(2, '0')}s`;
}

describe('HealthBot', () => {
  /** A server app that answers until the flag file exists, then holds every request without answering. */
  function hangingServer(): { dir: string; flag: string } {
    const dir = tempDir('forge-hang-');
    const flag = path.join(dir, 'hang');
    fs.writeFileSync(
      path.join(dir, 'server.js'),
      `require('http').createServer((req, res) => {
        if (require('fs').existsSync(${JSON.stringify(flag)})) return;
        res.end('ok');
      }).listen(Number(process.env.PORT), '127.0.0.1');`,
    );
    return { dir, flag };
  }

  it('checks previews every round, logs a failing one once, and says when it recovers', async () => {
    const app = await startTestApp();
    const services = app.forge.services;
    const { dir, flag } = hangingServer();
    services.repo.touchProject('hang', new Date());
    await services.previews.runServer('hang', {
      argv: [process.execPath, 'server.js'],
      cwd: dir,
      sandbox: false,
    });
    const bot: HealthBot = createHealthBot({ ...services, intervalMs: 20, previewAnswerMs: 300 });
    bot.start();
    try {
      const rounds = () => services.fleet.list().find((b) => b.name === 'HealthBot')?.jobsRun ?? 0;
      // Only the previews check is watched: the others depend on the machine the test runs on.
      const previews = () => bot.last()?.checks.find((c) => c.name === 'previews');
      await expect
        .poll(() => previews()?.summary, { timeout: 10_000 })
        .toBe('previews: the running one answers');

      fs.writeFileSync(flag, '');
      await expect
        .poll(() => previews()?.summary, { timeout: 10_000 })
        .toMatch(/^preview not answering within 0\.3 s: hang \(http:\/\/127\.0\.0\.1:\d+\)$/);
      expect(bot.last()!.ok).toBe(false);
      expect(bot.last()!.summary).toContain(previews()!.summary);
      const failedAt = rounds();
      await expect.poll(rounds, { timeout: 10_000 }).toBeGreaterThan(failedAt + 2);
      const warnings = app
        .logLines()
        .filter((l) => String(l.msg).startsWith('HealthBot: preview not answering'));
      expect(warnings).toHaveLength(1);
      // Its card says the last round failed (its status is "building" while the next round runs).
      expect(services.fleet.list().find((b) => b.name === 'HealthBot')!.lastJob).toMatchObject({
        label: 'health check',
        ok: false,
      });

      fs.rmSync(flag);
      await expect.poll(() => previews()?.ok, { timeout: 10_000 }).toBe(true);
      expect(app.logLines().filter((l) => l.msg === 'HealthBot: previews is healthy again')).toHaveLength(1);
    } finally {
      await bot.stop();
    }
  }, 30_000);

  it('reports low disk space, and the store and daemon checks', async () => {
    const app = await startTestApp();
    const bot = createHealthBot({
      ...app.forge.services,
      diskSpace: async () => ({ free: 800 * 1024 ** 2, total: 100 * 1024 ** 3 }),
    });
    const report = await bot.check();
    expect(report.ok).toBe(false);
    expect(report.summary).toBe('disk low: 800 MB free (1%)');
    expect(report.checks.map((c) => [c.name, c.ok])).toEqual([
      ['daemon', true],
      ['disk', false],
      ['previews', true],
      ['store', true],
    ]);
    expect(report.checks.find((c) => c.name === 'store')!.summary).toBe('store: ok');
    expect(report.checks[0]!.summary).toMatch(/^daemon: event loop p99 \d+ ms, memory \d+ MB$/);
    const card = app.forge.services.fleet.list().find((b) => b.name === 'HealthBot')!;
    expect(card.lastJob).toMatchObject({
      label: 'health check',
      ok: false,
      summary: 'disk low: 800 MB free (1%)',
    });
  });

  it("is the app's own, started with its routes and stopped with it", async () => {
    const app = await startTestApp();
    const bot = app.forge.services.healthBot;
    expect(bot).not.toBeNull();
    expect(bot.last()).toBeNull();
    await text(app, 'status');
    expect(bot.last()?.summary).toBe('all checks passed');
  });
});
