import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, isBuildState, type Build, type ServerMessage, type Settings } from '@forge/shared';
import { received } from '@forge/testing';
import { concurrencyOf, createFleet } from './fleet/fleet.ts';
import { homeLayout } from '../home-layout.ts';
import { openStore, STORE_FILE } from '../store/store.ts';
import { createPreviewRegistry, type PreviewRegistry } from '../capabilities/preview/preview-registry.ts';
import { createBuildRepo } from './build-repo.ts';
import { createRepairJournal } from '../capabilities/repair/journal.ts';
import { createBuildService } from '../features/builds/service.ts';

/**
 * The build engine on its own (no HTTP): the real service, pipeline, fleet, store and runner over a
 * temporary data dir, projects written straight into it and built with "Start Build".
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

type Files = Record<string, string>;

function engine(
  opts: { settings?: Partial<Settings>; previews?: (real: PreviewRegistry) => PreviewRegistry } = {},
) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-engine-'));
  const store = openStore(path.join(home, STORE_FILE));
  const logger = pino({ level: 'silent' });
  const repo = createBuildRepo(store);
  const layout = homeLayout(home);
  const log = received<ServerMessage>((m) => m.type);
  const { items: sent, until } = log;
  const broadcast = (m: ServerMessage) => log.push(m);
  const settings: Settings = { ...DEFAULT_SETTINGS, ...opts.settings };
  const realPreviews = createPreviewRegistry({ logger });
  const previews = opts.previews ? opts.previews(realPreviews) : realPreviews;
  const fleet = createFleet({ broadcast, maxConcurrent: () => concurrencyOf(settings) });
  const builds = createBuildService({
    layout,
    repo,
    fleet,
    previews,
    logger,
    settings: () => settings,
    broadcast,
    sandbox: false,
    journal: createRepairJournal(store),
  });
  cleanups.push(async () => {
    await builds.shutdown();
    await realPreviews.stopAll();
    store.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  return {
    settings,
    fleet,
    sent,
    until,
    builds,
    /** Write a project into the data dir and start building it. */
    start(name: string, files: Files): Build {
      const dir = layout.projectDir(name);
      fs.mkdirSync(dir, { recursive: true });
      for (const [file, content] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), content);
      }
      repo.touchProject(name, new Date());
      return builds.startBuild(name, { noCache: true });
    },
    async finished(id: string): Promise<Build> {
      await until((m) => m.type === 'build-finished' && m.buildId === id);
      return builds.get(id);
    },
    stagesOf: (id: string) =>
      sent
        .filter((m) => m.type === 'build-stage' && m.buildId === id)
        .map((m) => (m as { stage: string }).stage),
  };
}

const pkg = (scripts: Record<string, string>) => JSON.stringify({ name: 'p', private: true, scripts });
const WRITE_DIST =
  "require('fs').mkdirSync('dist',{recursive:true});require('fs').writeFileSync('dist/index.html','<h1>ok</h1>')";
const BUILT = { 'package.json': pkg({ build: `node -e "${WRITE_DIST}"` }) };
const HANG = { 'package.json': pkg({ build: 'node -e "setInterval(()=>{},1000)"' }) };

describe('the build engine', () => {
  it('every stage it announces is a state of the machine, and the record agrees at the end', async () => {
    const e = engine();
    const { id } = e.start('site', BUILT);
    const build = await e.finished(id);
    expect(build).toMatchObject({ status: 'succeeded', stage: 'integration-available' });
    for (const m of e.sent) if (m.type === 'build-stage') expect(isBuildState(m)).toBe(true);
    expect(e.stagesOf(id)).toEqual([
      'bot-assignment',
      'build-start',
      'build-success',
      'integration-available',
    ]);
  });

  it('a static output whose preview cannot be served still succeeds, never Build Complete then Build Failed', async () => {
    const e = engine({
      previews: (real) => ({
        ...real,
        serveStatic: () => Promise.reject(new Error('no port left')),
      }),
    });
    const { id } = e.start('site', BUILT);
    const build = await e.finished(id);
    expect(build).toMatchObject({ status: 'succeeded', stage: 'integration-available', previewUrl: null });
    expect(e.stagesOf(id)).not.toContain('build-failed');
    expect(build.steps.find((s) => s.name === 'preview')).toMatchObject({ status: 'failed' });
    const warned = e.sent.find((m) => m.type === 'log' && m.buildId === id && m.botName === 'PreviewBot');
    expect(warned).toMatchObject({ level: 'warn' });
  });

  it('a server app that never listens fails at build-start with PREVIEW_FAILED, no Build Complete first', async () => {
    const e = engine();
    const { id } = e.start('api', { 'package.json': pkg({ start: 'node -e "process.exit(4)"' }) });
    const build = await e.finished(id);
    expect(build).toMatchObject({
      status: 'failed',
      stage: 'build-failed',
      error: { code: 'PREVIEW_FAILED' },
    });
    expect(e.stagesOf(id)).toEqual(['bot-assignment', 'build-start', 'build-failed']);
  });

  it('ends with the catalogue code of the step that failed', async () => {
    const e = engine();
    const install = e.start('inst', {
      'package.json': pkg({ build: 'node -e 0' }),
      '.forgerc.json': JSON.stringify({ install: 'node -e "process.exit(2)"' }),
    });
    expect((await e.finished(install.id)).error).toMatchObject({ code: 'INSTALL_FAILED' });
    const nothing = e.start('nothing', { 'README.md': '# nothing to build' });
    expect(await e.finished(nothing.id)).toMatchObject({
      status: 'failed',
      stage: 'build-failed',
      error: { code: 'PROJECT_NOT_BUILDABLE' },
    });
    const noOutput = e.start('noout', { 'package.json': pkg({ build: 'node -e 0' }) });
    expect((await e.finished(noOutput.id)).error).toMatchObject({ code: 'OUTPUT_MISSING' });
  });

  it('a cancelled build ends at idle, its running step cancelled', async () => {
    const e = engine();
    const { id } = e.start('slow', HANG);
    await e.until((m) => m.type === 'log' && m.buildId === id && m.message.startsWith('$ '));
    e.builds.cancel(id, 'user');
    const build = await e.finished(id);
    expect(build).toMatchObject({
      status: 'cancelled',
      stage: 'idle',
      cancelReason: 'user',
      error: { code: 'CANCELLED' },
    });
    expect(build.steps.find((s) => s.name === 'build')).toMatchObject({ status: 'cancelled' });
    // Cancelling is not the bot's failure: no error status, nothing for "Fix" to retry.
    expect(e.fleet.list().find((b) => b.name === 'BuildBot')).toMatchObject({
      status: 'active',
      failures: 0,
    });
    expect(e.fleet.lastFailure('BuildBot')).toBeNull();
  });
});

describe('botOrchestration', () => {
  /** Bots that were building at the same moment, at most, by the fleet's own bot-status messages. */
  const mostAtOnce = (sent: ServerMessage[]): number => {
    const building = new Set<string>();
    let most = 0;
    for (const m of sent) {
      if (m.type !== 'bot-status') continue;
      if (m.status === 'building') building.add(m.botName);
      else building.delete(m.botName);
      most = Math.max(most, building.size);
    }
    return most;
  };
  const TESTED = {
    'package.json': pkg({ build: `node -e "${WRITE_DIST}"`, test: 'node -e "setTimeout(()=>{},300)"' }),
  };

  it('on: TestBot, UiBot and OptimizationBot work on a build at the same time', async () => {
    const e = engine({ settings: { botOrchestration: true } });
    const { id } = e.start('site', TESTED);
    expect((await e.finished(id)).status).toBe('succeeded');
    expect(mostAtOnce(e.sent)).toBe(3);
  });

  it('off: one job at a time, in order — the preview first, then the checks one after another', async () => {
    const e = engine({ settings: { botOrchestration: false } });
    const { id } = e.start('site', TESTED);
    const build = await e.finished(id);
    expect(build.status).toBe('succeeded');
    expect(mostAtOnce(e.sent)).toBe(1);
    // Tests never hold the preview: it is served as soon as the output is there.
    expect(build.steps.map((s) => s.name)).toEqual([
      'detect',
      'build',
      'preview',
      'test',
      'check',
      'optimize',
    ]);
  });

  it('off: a second project waits queued until the first build ends, then runs', async () => {
    const e = engine({ settings: { botOrchestration: false } });
    const first = e.start('first', HANG);
    await e.until((m) => m.type === 'log' && m.buildId === first.id && m.message.startsWith('$ '));
    const second = e.start('second', BUILT);
    expect(e.builds.get(second.id)).toMatchObject({ status: 'queued', stage: 'starting' });
    await expect.poll(() => e.builds.load).toEqual({ running: 1, queued: 1 });
    expect(e.stagesOf(second.id)).toEqual([]);
    e.builds.cancel(first.id);
    expect((await e.finished(first.id)).status).toBe('cancelled');
    const done = await e.finished(second.id);
    expect(done).toMatchObject({ status: 'succeeded', stage: 'integration-available' });
    expect(done.stages.map((s) => s.stage)).toEqual([
      'starting',
      'bot-assignment',
      'build-start',
      'build-success',
      'integration-available',
    ]);
  });

  it('on: builds of several projects run at once, up to maxConcurrentBots', async () => {
    const e = engine({ settings: { botOrchestration: true, maxConcurrentBots: 2 } });
    const a = e.start('a', HANG);
    const b = e.start('b', HANG);
    const c = e.start('c', BUILT);
    await e.until((m) => m.type === 'log' && m.buildId === a.id && m.message.startsWith('$ '));
    await e.until((m) => m.type === 'log' && m.buildId === b.id && m.message.startsWith('$ '));
    expect(e.builds.get(c.id).status).toBe('queued');
    // Cancelled while it waits: it ends at idle without running a step.
    e.builds.cancel(c.id);
    expect(await e.finished(c.id)).toMatchObject({ status: 'cancelled', stage: 'idle', steps: [] });
    e.builds.cancel(a.id);
    e.builds.cancel(b.id);
    await Promise.all([e.finished(a.id), e.finished(b.id)]);
  });
});

describe('LintBot', () => {
  it("runs the project's lint script after the build, records what it found, and never fails the build", async () => {
    const e = engine();
    const lint = `node -e "console.log('✖ 3 problems (1 error, 2 warnings)');process.exit(1)"`;
    const { id } = e.start('linted', { 'package.json': pkg({ build: `node -e "${WRITE_DIST}"`, lint }) });
    const build = await e.finished(id);
    expect(build.status).toBe('succeeded');
    expect(build.lint).toMatchObject({ ran: true, passed: false, problems: 3 });
    expect(build.lint!.outputTail).toContain('3 problems');
    expect(build.steps.find((s) => s.name === 'lint')).toMatchObject({
      botName: 'LintBot',
      status: 'failed',
    });
  });

  it('has no job without a lint script', async () => {
    const e = engine();
    const { id } = e.start('plain', BUILT);
    const build = await e.finished(id);
    expect(build.lint).toBeNull();
    expect(build.steps.map((s) => s.name)).not.toContain('lint');
  });
});

describe('debugMode', () => {
  it('on: each step records and logs its command line, environment names (never values), directory and timings', async () => {
    const e = engine({ settings: { debugMode: true } });
    const { id } = e.start('site', BUILT);
    const build = await e.finished(id);
    const step = build.steps.find((s) => s.name === 'build')!;
    expect(step.debug).toMatchObject({ queuedMs: expect.any(Number) });
    const [command] = step.debug!.commands;
    expect(command).toMatchObject({
      command: 'npm run build',
      cwd: expect.stringMatching(/projects[/\\]site$/),
      exitCode: 0,
      sandboxed: false,
    });
    expect(command!.envNames).toContain('PATH');
    expect(JSON.stringify(build)).not.toContain(process.env.PATH!);
    const lines = e.sent.filter(
      (m) => m.type === 'log' && m.buildId === id && m.message.startsWith('[debug]'),
    );
    expect(lines.some((m) => (m as { message: string }).message.includes('environment: '))).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(process.env.PATH!);
  });

  it('off: nothing of it', async () => {
    const e = engine({ settings: { debugMode: false } });
    const { id } = e.start('site', BUILT);
    const build = await e.finished(id);
    expect(build.steps.every((s) => s.debug === null)).toBe(true);
    expect(e.sent.some((m) => m.type === 'log' && m.message.startsWith('[debug]'))).toBe(false);
  });
});
