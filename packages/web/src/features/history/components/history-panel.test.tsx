import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry, Project, ProjectHistory, RollbackResult } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { HistoryPanel, NO_HISTORY_HINT } from './history-panel.tsx';

const project: Project = {
  name: 'my-app',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastBuild: null,
  hasArtifact: true,
};

const entry = (buildId: string, current: boolean, digest: string): HistoryEntry => ({
  buildId,
  createdAt: '2026-01-02T10:00:00.000Z',
  endedAt: '2026-01-02T10:00:05.000Z',
  sourceHash: 'h',
  sourceSha256: 's'.repeat(64),
  artifactSha256: digest.repeat(64),
  bytes: 2048,
  files: 3,
  verdict: null,
  current,
  lastGreen: current,
});

const historyOf = (current: string): ProjectHistory => ({
  projectName: 'my-app',
  currentBuildId: current,
  keep: 10,
  builds: [
    entry('b2-aaaaaa', current === 'b2-aaaaaa', 'b'),
    entry('b1-aaaaaa', current === 'b1-aaaaaa', 'a'),
  ],
});

const notices = () => within(screen.getByRole('region', { name: 'Notifications (F8)' }));

describe('history panel', () => {
  it('lists the kept builds with the current one marked, and rolls back to another', async () => {
    let current = 'b2-aaaaaa';
    const daemon = stubDaemon(({ url, method, body }) => {
      if (url.pathname === '/api/projects') return json([project]);
      if (url.pathname === '/api/projects/my-app/history') return json(historyOf(current));
      if (method === 'POST' && url.pathname === '/api/projects/my-app/rollback') {
        const previous = current;
        current = (body as { build: string }).build;
        const result: RollbackResult = {
          projectName: 'my-app',
          buildId: current,
          previousBuildId: previous,
          artifactSha256: 'a'.repeat(64),
          previewUrl: 'http://127.0.0.1:5999',
          durationMs: 40,
        };
        return json(result);
      }
      return undefined;
    });
    renderPanel(<HistoryPanel />);

    const newest = await screen.findByRole('listitem', { name: 'Build b2-aaaaaa (current)' });
    expect(within(newest).getByText('current')).toBeDefined();
    expect(within(newest).getByText('bbbbbbbbbbbb')).toBeDefined();
    expect(within(newest).queryByRole('button')).toBeNull();
    const older = screen.getByRole('listitem', { name: 'Build b1-aaaaaa' });
    expect(within(older).getByText('2 KB')).toBeDefined();

    fireEvent.click(within(older).getByRole('button', { name: 'Roll back my-app to build b1-aaaaaa' }));
    await waitFor(() =>
      expect(daemon.requests.filter((r) => r.method === 'POST')).toEqual([
        expect.objectContaining({ path: '/api/projects/my-app/rollback', body: { build: 'b1-aaaaaa' } }),
      ]),
    );
    expect(await notices().findByText('my-app now serves build b1-aaaaaa.')).toBeDefined();
    expect(await screen.findByRole('listitem', { name: 'Build b1-aaaaaa (current)' })).toBeDefined();
  });

  it('reads the history again when another client rolls back, and says why a rollback failed', async () => {
    let current = 'b2-aaaaaa';
    stubDaemon(({ url, method }) => {
      if (url.pathname === '/api/projects') return json([project]);
      if (url.pathname === '/api/projects/my-app/history') return json(historyOf(current));
      if (method === 'POST' && url.pathname === '/api/projects/my-app/rollback') {
        return json({ error: 'Build b1-aaaaaa of my-app is no longer kept.', code: 'BUILD_NOT_KEPT' }, 410);
      }
      return undefined;
    });
    const { socket } = renderPanel(<HistoryPanel />);
    await screen.findByRole('listitem', { name: 'Build b2-aaaaaa (current)' });

    current = 'b1-aaaaaa';
    socket.emit({
      type: 'build-rollback',
      projectName: 'my-app',
      currentBuildId: 'b1-aaaaaa',
      previousBuildId: 'b2-aaaaaa',
      previewUrl: null,
    });
    expect(await screen.findByRole('listitem', { name: 'Build b1-aaaaaa (current)' })).toBeDefined();

    fireEvent.click(screen.getByRole('button', { name: 'Roll back my-app to build b2-aaaaaa' }));
    expect(await notices().findByText('Rollback failed')).toBeDefined();
    expect(notices().getByText('Build b1-aaaaaa of my-app is no longer kept.')).toBeDefined();
  });

  it('says what it will show before a build is kept', async () => {
    stubDaemon(({ url }) => {
      if (url.pathname === '/api/projects') return json([project]);
      if (url.pathname === '/api/projects/my-app/history') {
        return json({ projectName: 'my-app', currentBuildId: null, keep: 10, builds: [] });
      }
      return undefined;
    });
    renderPanel(<HistoryPanel />);
    expect(await screen.findByText(NO_HISTORY_HINT)).toBeDefined();
  });
});
