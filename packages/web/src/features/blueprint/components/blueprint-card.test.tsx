import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Project, Stage } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { buildStream, makeBlueprint, makeBuild } from '@forge/testing/fixtures';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { BlueprintCard } from './blueprint-card.tsx';

const project: Project = {
  name: 'my-app',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastBuild: null,
  hasArtifact: false,
};

const build = (framework: string, stages: Array<[Stage, number]>) =>
  makeBuild({
    id: 'b1',
    projectName: 'my-app',
    stages,
    blueprint: makeBlueprint({ framework, packageManager: 'pnpm' }),
  });
const RUNNING: Array<[Stage, number]> = [
  ['starting', 0],
  ['bot-assignment', 1],
  ['build-start', 2],
];

describe('blueprint card', () => {
  it('shows live facts and the plan of the latest build, refreshed when a build of it moves on', async () => {
    let latest = [build('vite', RUNNING)];
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

    latest = [build('next-export', [...RUNNING, ['build-success', 3], ['integration-available', 4]])];
    socket.emit(buildStream('b1', 'my-app').finished('succeeded', 4));

    expect(await plan.findByText('next-export')).toBeDefined();
    expect(plan.getByText('Integration Available')).toBeDefined();

    socket.emit({ type: 'file-content-updated', filePath: 'src/app.ts', content: 'x' });
    await waitFor(() => expect(screen.getByText('1 change · src/app.ts')).toBeDefined());
  });
});

describe('blueprint card: repositories of several apps', () => {
  const apps = [
    { dir: 'apps/web', name: 'web', framework: 'vite', kind: 'static-build' as const },
    { dir: 'apps/admin', name: 'admin', framework: 'vite', kind: 'static-build' as const },
  ];

  it('shows the provisioned package manager, a Node mismatch and builds another app when chosen', async () => {
    const plan = makeBlueprint({
      packageManager: 'pnpm',
      toolchain: {
        tool: 'pnpm',
        package: 'pnpm',
        request: '10.20.0',
        version: '10.20.0',
        source: 'packageManager',
        file: 'package.json',
      },
      node: { wanted: '>=22', file: 'package.json', current: '20.20.2', satisfied: false },
      appDir: 'apps/web',
      outputDir: 'apps/web/dist',
      apps,
    });
    const daemon = stubDaemon(({ url, method }) => {
      if (url.pathname === '/api/projects') return json([project]);
      if (url.pathname === '/api/builds' && method === 'POST') {
        return json(makeBuild({ id: 'b2', projectName: 'my-app', stages: RUNNING }));
      }
      if (url.pathname === '/api/builds') {
        return json([makeBuild({ id: 'b1', projectName: 'my-app', stages: RUNNING, blueprint: plan })]);
      }
      return undefined;
    });
    renderPanel(<BlueprintCard />);

    const region = within(await screen.findByRole('region', { name: 'Build plan' }));
    expect(await region.findByText('pnpm 10.20.0')).toBeDefined();
    expect(region.getByText('apps/web/dist')).toBeDefined();
    expect(region.getByRole('note').textContent).toBe(
      'The project asks for Node >=22 (package.json); this machine runs Node 20.20.2.',
    );
    const picker = region.getByLabelText(/App \(2 in this repository\)/);
    const build = region.getByRole('button', { name: 'Build this app' });
    expect((build as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(picker, { target: { value: 'apps/admin' } });
    expect((build as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(build);
    await waitFor(() => {
      const posted = daemon.requests.find((r) => r.method === 'POST' && r.path === '/api/builds');
      expect(posted?.body).toEqual({ projectName: 'my-app', app: 'apps/admin' });
    });
  });
});

describe('blueprint card: a build run by a worker', () => {
  it('says whose Node the plan checked: the worker that ran the build, not this machine', async () => {
    const plan = makeBlueprint({
      node: { wanted: '>=22', file: '.nvmrc', current: '20.20.2', satisfied: false },
    });
    stubDaemon(({ url }) => {
      if (url.pathname === '/api/projects') return json([project]);
      if (url.pathname === '/api/builds') {
        return json([
          makeBuild({ id: 'b1', projectName: 'my-app', stages: RUNNING, blueprint: plan, worker: 'ci-2' }),
        ]);
      }
      return undefined;
    });
    renderPanel(<BlueprintCard />);

    const region = within(await screen.findByRole('region', { name: 'Build plan' }));
    expect((await region.findByRole('note')).textContent).toBe(
      'The project asks for Node >=22 (.nvmrc); the worker ci-2 runs Node 20.20.2.',
    );
  });
});
