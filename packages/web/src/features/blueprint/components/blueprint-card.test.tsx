import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Project } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { BlueprintCard } from './blueprint-card.tsx';

const project: Project = {
  name: 'my-app',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastBuild: null,
  hasArtifact: false,
};

const build = (framework: string, stage: string) => ({
  id: 'b1',
  projectName: 'my-app',
  stage,
  blueprint: { kind: 'static-build', framework, packageManager: 'pnpm', outputDir: 'dist' },
});

describe('blueprint card', () => {
  it('shows live facts and the plan of the latest build, refreshed when a build of it moves on', async () => {
    let latest = [build('vite', 'build-start')];
    const daemon = stubDaemon(({ url }) => {
      if (url.pathname === '/api/projects') return json([project]);
      if (url.pathname === '/api/builds') return json(latest);
      if (url.pathname === '/api/bots/status') {
        return json({
          success: true,
          activities: [
            { type: 'infrastructure', count: 6, status: 'online' },
            { type: 'development', count: 5, status: 'error' },
          ],
        });
      }
      return undefined;
    });
    const { socket } = renderPanel(<BlueprintCard />);
    socket.setStatus('connected');

    const plan = within(await screen.findByRole('region', { name: 'Build plan' }));
    expect(await plan.findByText('vite')).toBeDefined();
    expect(plan.getByText('pnpm')).toBeDefined();
    expect(plan.getByText('dist')).toBeDefined();
    expect(plan.getByText('Building')).toBeDefined();
    expect(daemon.requests.some((r) => r.path === '/api/builds?project=my-app&limit=1')).toBe(true);
    expect(screen.getByText('25 bots')).toBeDefined();
    expect(await screen.findByText('11/25 bots online')).toBeDefined();
    expect(screen.getByText('Live over the socket')).toBeDefined();

    latest = [build('next-export', 'integration-available')];
    socket.emit({
      type: 'build-finished',
      buildId: 'b1',
      projectName: 'my-app',
      status: 'succeeded',
      stage: 'integration-available',
    });

    expect(await plan.findByText('next-export')).toBeDefined();
    expect(plan.getByText('Integration Available')).toBeDefined();

    socket.emit({ type: 'file-content-updated', filePath: 'src/app.ts', content: 'x' });
    await waitFor(() => expect(screen.getByText('1 change · src/app.ts')).toBeDefined());
  });
});
