import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIVE_VIEWER_KEEP, type BuildOutput, type ServerMessage } from '@forge/shared';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import {
  BUILD_COMPLETE_EVENT,
  LOG_KEEP,
  createLiveStore,
  initialLiveBuild,
  reduceLive,
  reduceLiveBuild,
  useLiveBuild,
  useLogEntries,
} from './live-store.ts';

const NOW = '2025-01-02T03:04:05.000Z';
const apply = (messages: ServerMessage[]) =>
  messages.reduce((s, m) => reduceLiveBuild(s, m, NOW), initialLiveBuild);
const output: BuildOutput = { projectName: 'site', buildPath: '/out/site', files: ['index.html'] };

describe('live build (spec §4)', () => {
  it('rapid-build-start clears bots and output and sets stage starting', () => {
    const state = apply([
      { type: 'rapid-build-start', projectName: 'old' },
      { type: 'bot-assigned', botName: 'BuildBot', projectName: 'old' },
      { type: 'build-output', output: 'compiling\ndone\n', projectName: 'old' },
      { type: 'build-stage', stage: 'build-failed', projectName: 'old' },
      { type: 'rapid-build-start', projectName: 'site' },
    ]);
    expect(state.projectName).toBe('site');
    expect(state.stage).toBe('starting');
    expect(state.builderBots).toEqual([]);
    expect(state.output).toEqual([]);
  });

  it('collects builder bots once each, in order, and follows build-stage', () => {
    const state = apply([
      { type: 'rapid-build-start', projectName: 'site' },
      { type: 'bot-assigned', botName: 'BuildBot', projectName: 'site' },
      { type: 'bot-assigned', botName: 'UiBot', projectName: 'site' },
      { type: 'bot-assigned', botName: 'BuildBot', projectName: 'site' },
      { type: 'build-stage', stage: 'build-start', projectName: 'site' },
      { type: 'build-output', output: 'vite v8\r\nbuilt in 1s\n' },
    ]);
    expect(state.builderBots).toEqual(['BuildBot', 'UiBot']);
    expect(state.stage).toBe('build-start');
    expect(state.output).toEqual(['vite v8', 'built in 1s']);
  });

  it('build_complete sets integration-available', () => {
    const state = apply([{ type: 'build_complete', buildOutput: output }]);
    expect(state.stage).toBe('integration-available');
    expect(state.projectName).toBe('site');
    expect(state.messages.at(-1)?.buildOutput).toEqual(output);
  });

  it(`keeps the last ${LIVE_VIEWER_KEEP} messages, oldest dropped first`, () => {
    const messages: ServerMessage[] = Array.from({ length: 60 }, (_, i) => ({
      type: 'build-output',
      output: `line ${i}`,
      projectName: 'site',
    }));
    const state = apply(messages);
    expect(state.messages).toHaveLength(LIVE_VIEWER_KEEP);
    expect(state.messages[0]?.output).toBe('line 10');
    expect(state.messages.at(-1)?.output).toBe('line 59');
  });

  it('ignores messages that are not about builds', () => {
    const state = apply([
      { type: 'hello', version: '1.0.0', clientId: 'c1' },
      { type: 'log', botName: 'SYSTEM', level: 'info', message: 'plain text frame' },
    ]);
    expect(state).toBe(initialLiveBuild);
  });
});

describe('log entries', () => {
  const linesOf = (messages: ServerMessage[]) =>
    messages
      .reduce(
        (s, m) => reduceLive(s, m, NOW),
        reduceLive({ entries: [], build: initialLiveBuild, seq: 0 }, { type: 'pong' }, NOW),
      )
      .entries.map(({ level, botName, message }) => ({ level, botName, message }));

  it('turns stdout into info lines and stderr into warn lines, one entry per line', () => {
    expect(
      linesOf([
        { type: 'build-output', output: 'a\nb\n' },
        { type: 'build-error', output: 'npm warn deprecated x' },
      ]),
    ).toEqual([
      { level: 'info', botName: 'SYSTEM', message: 'a' },
      { level: 'info', botName: 'SYSTEM', message: 'b' },
      { level: 'warn', botName: 'SYSTEM', message: 'npm warn deprecated x' },
    ]);
  });

  it('logs stage changes: success and failure stand out, the rest is info', () => {
    const stages = [
      'starting',
      'build-success',
      'integration-available',
      'build-failed',
      'build-timeout',
    ] as const;
    expect(linesOf(stages.map((stage) => ({ type: 'build-stage', stage, projectName: 'site' })))).toEqual([
      { level: 'info', botName: 'SYSTEM', message: 'site: Starting' },
      { level: 'success', botName: 'SYSTEM', message: 'site: Build Complete' },
      { level: 'success', botName: 'SYSTEM', message: 'site: Integration Available' },
      { level: 'error', botName: 'SYSTEM', message: 'site: Build Failed' },
      { level: 'error', botName: 'SYSTEM', message: 'site: Build Timeout' },
    ]);
  });

  it('keeps log messages as sent and reports the end of a build', () => {
    expect(
      linesOf([
        { type: 'log', botName: 'TestBot', level: 'error', message: '2 tests failed' },
        {
          type: 'build-finished',
          buildId: 'b1',
          projectName: 'site',
          status: 'succeeded',
          stage: 'integration-available',
          previewUrl: 'http://127.0.0.1:5000',
          cacheHit: true,
        },
        {
          type: 'build-finished',
          buildId: 'b2',
          projectName: 'site',
          status: 'failed',
          stage: 'build-failed',
        },
      ]),
    ).toEqual([
      { level: 'error', botName: 'TestBot', message: '2 tests failed' },
      {
        level: 'success',
        botName: 'SYSTEM',
        message: 'site: build succeeded (cache hit, preview at http://127.0.0.1:5000)',
      },
      { level: 'error', botName: 'SYSTEM', message: 'site: build failed' },
    ]);
  });

  it(`keeps the last ${LOG_KEEP} lines with unique ids`, () => {
    const big = Array.from({ length: LOG_KEEP + 5 }, (_, i) => `line ${i}`).join('\n');
    const state = reduceLive(
      { entries: [], build: initialLiveBuild, seq: 0 },
      { type: 'build-output', output: big },
      NOW,
    );
    expect(state.entries).toHaveLength(LOG_KEEP);
    expect(state.entries[0]?.message).toBe('line 5');
    expect(new Set(state.entries.map((e) => e.id)).size).toBe(LOG_KEEP);
  });
});

describe('store', () => {
  afterEach(() => vi.restoreAllMocks());

  it('raises the window build_complete event with the build output', () => {
    const store = createLiveStore(() => () => {});
    const seen: unknown[] = [];
    const listener = (event: Event) => seen.push((event as CustomEvent).detail);
    window.addEventListener(BUILD_COMPLETE_EVENT, listener);
    store.ingest({ type: 'build_complete', buildOutput: output });
    window.removeEventListener(BUILD_COMPLETE_EVENT, listener);
    expect(seen).toEqual([output]);
    expect(store.getState().build.stage).toBe('integration-available');
  });

  it('listens to the socket once however many panels read it, and stops when the last goes', () => {
    const unsubscribe = vi.fn();
    const subscribe = vi.fn(() => unsubscribe);
    const store = createLiveStore(subscribe);
    const releaseA = store.retain();
    const releaseB = store.retain();
    expect(subscribe).toHaveBeenCalledTimes(1);
    releaseA();
    releaseA();
    expect(unsubscribe).not.toHaveBeenCalled();
    releaseB();
    expect(unsubscribe).toHaveBeenCalledTimes(1);
  });

  it('applies each socket message once with two panels mounted, and Clear empties the log', () => {
    stubDaemon(() => undefined);
    function Count() {
      const { entries, clear } = useLogEntries();
      const build = useLiveBuild();
      return (
        <button type="button" onClick={clear}>
          {entries.length} lines, {build.builderBots.length} bots
        </button>
      );
    }
    const { socket } = renderPanel(
      <>
        <Count />
        <Count />
      </>,
    );
    socket.emit({ type: 'log', botName: 'SYSTEM', level: 'info', message: 'hello' });
    socket.emit({ type: 'bot-assigned', botName: 'BuildBot', projectName: 'site' });
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([
      '2 lines, 1 bots',
      '2 lines, 1 bots',
    ]);
    fireEvent.click(screen.getAllByRole('button')[0]!);
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([
      '0 lines, 1 bots',
      '0 lines, 1 bots',
    ]);
  });
});
