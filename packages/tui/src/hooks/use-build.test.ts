import { describe, expect, it } from 'vitest';
import { createClientStore, type ServerMessage } from '@forge/shared';
import { at, makeBuild } from '@forge/testing';
import { followedBuildId } from './use-build.tsx';

const started = (buildId: string, ms: number): ServerMessage => ({
  type: 'build-stage',
  buildId,
  projectName: 'site',
  status: 'running',
  stage: 'bot-assignment',
  timestamp: at(ms),
});

describe('followedBuildId', () => {
  it('follows the chosen build until a newer one starts, then the newer one', () => {
    const store = createClientStore();
    store.dispatch({ type: 'build-record', build: makeBuild({ id: 'b2', createdAt: at(2_000) }) });
    expect(followedBuildId(store.getState(), 'b2')).toBe('b2');
    // An older build still running says something: the chosen, newer one stays.
    store.dispatch({ type: 'build-record', build: makeBuild({ id: 'b1', stages: [['build-start', 0]] }) });
    store.receive({
      type: 'log',
      buildId: 'b1',
      projectName: 'site',
      botName: 'TestBot',
      level: 'info',
      message: 'x',
    });
    expect(store.getState().activeBuildId).toBe('b1');
    expect(followedBuildId(store.getState(), 'b2')).toBe('b2');
    // A build started after it takes over.
    store.receive(started('b3', 3_000));
    expect(followedBuildId(store.getState(), 'b2')).toBe('b3');
  });

  it('follows a build just chosen before its record is read, and the active one when none is chosen', () => {
    const store = createClientStore();
    expect(followedBuildId(store.getState(), null)).toBeNull();
    store.receive(started('b1', 0));
    expect(followedBuildId(store.getState(), null)).toBe('b1');
    expect(followedBuildId(store.getState(), 'b9')).toBe('b9');
  });

  it('is not taken over by the output of a build that ended (a server app printing on)', () => {
    const store = createClientStore();
    store.dispatch({
      type: 'build-record',
      build: makeBuild({ id: 'b1', stages: [['integration-available', 0]] }),
    });
    store.dispatch({
      type: 'build-record',
      build: makeBuild({ id: 'b2', createdAt: at(1_000), stages: [['integration-available', 1_000]] }),
    });
    store.receive({ type: 'build-output', buildId: 'b1', output: 'GET / 200', timestamp: at(5_000) });
    store.receive({
      type: 'log',
      buildId: 'b1',
      botName: 'PreviewBot',
      level: 'info',
      message: 'GET /',
      timestamp: at(5_000),
    });
    expect(followedBuildId(store.getState(), 'b2')).toBe('b2');
  });
});
