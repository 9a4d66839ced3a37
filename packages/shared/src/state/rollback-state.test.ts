import { describe, expect, it } from 'vitest';
import { newBuild } from '../domain/build-machine.ts';
import type { Build } from '../domain/builds.ts';
import { createClientState, latestBuild, reduceClient, type ClientEvent } from './client-state.ts';

const AT = '2026-11-24T10:00:00.000Z';
const record = (id: string, previewUrl: string | null, project = 'app'): ClientEvent => ({
  type: 'build-record',
  build: {
    ...newBuild(id, project, AT),
    status: 'succeeded',
    stage: 'integration-available',
    previewUrl,
  } as Build,
});

describe('reduceClient: build-rollback', () => {
  it('moves the preview address to the build rolled back to, leaves the newest build newest, and says so', () => {
    const rolled: ClientEvent = {
      type: 'message',
      at: AT,
      message: {
        type: 'build-rollback',
        projectName: 'app',
        currentBuildId: 'b1-aaaaaa',
        previousBuildId: 'b2-bbbbbb',
        previewUrl: 'http://127.0.0.1:6001',
      },
    };
    const state = [
      record('b1-aaaaaa', null),
      record('b2-bbbbbb', 'http://127.0.0.1:6000'),
      record('b3-cccccc', 'http://127.0.0.1:7000', 'other'),
      rolled,
    ].reduce(reduceClient, createClientState());
    expect(state.builds['b1-aaaaaa']!.build.previewUrl).toBe('http://127.0.0.1:6001');
    expect(state.builds['b2-bbbbbb']!.build.previewUrl).toBeNull();
    expect(state.builds['b3-cccccc']!.build.previewUrl).toBe('http://127.0.0.1:7000');
    // No build was started by it.
    expect(Object.keys(state.builds)).toHaveLength(3);
    expect(latestBuild(state, 'app')?.build.id).toBe('b2-bbbbbb');
    expect(state.console.at(-1)?.message).toBe(
      'app: rolled back to build b1-aaaaaa (preview at http://127.0.0.1:6001)',
    );
  });
});
