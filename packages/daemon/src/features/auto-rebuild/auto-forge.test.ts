import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import type { Build, ServerMessage } from '@forge/shared';
import type { BuildRepo } from '../../engine/build-repo.ts';
import { AUTO_FORGE_SETTLE_MS, BUILD_EVENT_SLACK_MS, createAutoForge } from './auto-forge.ts';
import { createFlags } from '../../store/flags.ts';
import { openStore } from '../../store/store.ts';

/** Just the fields auto-forge reads. */
type BuildLike = Pick<Build, 'id' | 'status' | 'createdAt' | 'endedAt' | 'blueprint'>;

function setup(initial: BuildLike[] = []) {
  const history: BuildLike[] = [...initial];
  const store = openStore(':memory:');
  stores.push(store);
  const flags = createFlags(store);
  const started: string[] = [];
  const logs: ServerMessage[] = [];
  const repo = { list: () => [...history].reverse() } as unknown as BuildRepo;
  const autoForge = createAutoForge({
    flags,
    repo,
    logger: pino({ level: 'silent' }),
    broadcast: (m) => logs.push(m),
    fleet: { run: (_bot, _job, fn) => fn() },
    builds: {
      running: () => undefined,
      startBuild: (project) => {
        started.push(project);
        const build = {
          id: `b${history.length + 1}`,
          status: 'running',
          createdAt: new Date().toISOString(),
          endedAt: null,
          blueprint: null,
        } as BuildLike;
        history.push(build);
        return build as Build;
      },
    },
  });
  return { autoForge, history, started, logs };
}

const finished = (endedAt: number, kind: 'static-build' | 'server' = 'static-build'): BuildLike => ({
  id: 'b1',
  status: 'succeeded',
  createdAt: new Date(endedAt - 1_000).toISOString(),
  endedAt: new Date(endedAt).toISOString(),
  blueprint: { kind } as Build['blueprint'],
});

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-01-01T12:00:00Z'));
});
const stores: { close(): void }[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const store of stores.splice(0)) store.close();
});

describe('auto-forge', () => {
  it('is on by default and rebuilds once, after the changes settle, saying why', async () => {
    const { autoForge, started, logs } = setup([finished(Date.now() - 60_000)]);
    expect(autoForge.isActive()).toBe(true);
    autoForge.noteChange('app', ['src/a.ts'], 'api');
    await vi.advanceTimersByTimeAsync(AUTO_FORGE_SETTLE_MS - 100);
    autoForge.noteChange('app', ['src/b.ts', 'src/c.ts', 'src/d.ts'], 'disk');
    await vi.advanceTimersByTimeAsync(AUTO_FORGE_SETTLE_MS - 100);
    expect(started).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(started).toEqual(['app']);
    expect(logs).toEqual([
      expect.objectContaining({
        type: 'log',
        botName: 'WatchBot',
        message:
          'Auto-Forge: rebuilding app because src/a.ts, src/b.ts, src/c.ts and 1 more were saved in Forge.',
      }),
    ]);
  });

  it('never rebuilds a project that was never built, or anything while it is off', async () => {
    const never = setup();
    never.autoForge.noteChange('app', ['a.ts'], 'api');
    await vi.advanceTimersByTimeAsync(AUTO_FORGE_SETTLE_MS * 2);
    expect(never.started).toEqual([]);

    const off = setup([finished(Date.now() - 60_000)]);
    off.autoForge.noteChange('app', ['a.ts'], 'api');
    off.autoForge.setActive(false);
    off.autoForge.noteChange('app', ['b.ts'], 'api');
    await vi.advanceTimersByTimeAsync(AUTO_FORGE_SETTLE_MS * 2);
    expect(off.started).toEqual([]);
    expect(off.autoForge.isActive()).toBe(false);
  });

  it("takes disk changes seen while a build runs, or as it ends, for the build's own writes", async () => {
    const running = setup([{ ...finished(0), status: 'running', endedAt: null }]);
    running.autoForge.noteChange('app', ['.next/cache/x'], 'disk');
    await vi.advanceTimersByTimeAsync(AUTO_FORGE_SETTLE_MS * 2);
    expect(running.started).toEqual([]);

    const justEnded = Date.now() - 1_000;
    const ended = setup([finished(justEnded)]);
    ended.autoForge.noteChange('app', ['tsconfig.tsbuildinfo'], 'disk', justEnded + BUILD_EVENT_SLACK_MS - 1);
    await vi.advanceTimersByTimeAsync(AUTO_FORGE_SETTLE_MS * 2);
    expect(ended.started).toEqual([]);
    ended.autoForge.noteChange('app', ['src/a.ts'], 'disk', justEnded + BUILD_EVENT_SLACK_MS + 1);
    await vi.advanceTimersByTimeAsync(AUTO_FORGE_SETTLE_MS * 2);
    expect(ended.started).toEqual(['app']);
  });

  it('waits for a running build to end before rebuilding for a save made during it', async () => {
    const { autoForge, history, started } = setup([{ ...finished(0), status: 'running', endedAt: null }]);
    autoForge.noteChange('app', ['src/a.ts'], 'api');
    await vi.advanceTimersByTimeAsync(AUTO_FORGE_SETTLE_MS * 3);
    expect(started).toEqual([]);
    history[0] = { ...history[0]!, status: 'succeeded', endedAt: new Date().toISOString() };
    await vi.advanceTimersByTimeAsync(AUTO_FORGE_SETTLE_MS);
    expect(started).toEqual(['app']);
  });

  it('does not rebuild when a build started after the change already has it', async () => {
    const { autoForge, history, started } = setup([finished(Date.now() - 60_000)]);
    autoForge.noteChange('app', ['src/a.ts'], 'api');
    await vi.advanceTimersByTimeAsync(100);
    history.push({ ...finished(Date.now() + 50), createdAt: new Date().toISOString() });
    await vi.advanceTimersByTimeAsync(AUTO_FORGE_SETTLE_MS * 2);
    expect(started).toEqual([]);
  });

  it('rebuilds a server app only for saves made in Forge (the running app may write its own folder)', async () => {
    const { autoForge, started } = setup([finished(Date.now() - 60_000, 'server')]);
    autoForge.noteChange('api', ['data/db.json'], 'disk');
    await vi.advanceTimersByTimeAsync(AUTO_FORGE_SETTLE_MS * 2);
    expect(started).toEqual([]);
    autoForge.noteChange('api', ['server.js'], 'api');
    await vi.advanceTimersByTimeAsync(AUTO_FORGE_SETTLE_MS * 2);
    expect(started).toEqual(['api']);
  });
});
