import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Build, Project } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { ProjectActions } from './project-actions.tsx';

const notices = () => within(screen.getByRole('region', { name: 'Notifications (F8)' }));

const project = (name: string, hasArtifact: boolean): Project => ({
  name,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastBuild: null,
  hasArtifact,
});

describe('right column project actions (docs/product.md#dashboard)', () => {
  it('offers Download App only once the project has build output, and says why before', async () => {
    let projects = [project('my-app', false)];
    stubDaemon(({ url }) => (url.pathname === '/api/projects' ? json(projects) : undefined));
    const { queryClient } = renderPanel(<ProjectActions />);

    const source = await screen.findByRole('link', { name: 'Download Project' });
    expect(source.getAttribute('href')).toBe('/api/projects/my-app/download');
    const app = screen.getByRole('button', { name: 'Download App' });
    expect(app.getAttribute('aria-disabled')).toBe('true');
    const reason = document.getElementById(app.getAttribute('aria-describedby')!);
    expect(reason?.textContent).toBe('No successful build of this project yet: start a build first');

    projects = [project('my-app', true)];
    await queryClient.invalidateQueries();

    const link = await screen.findByRole('link', { name: 'Download App' });
    expect(link.getAttribute('href')).toBe('/api/projects/my-app/artifact');
  });

  it('starts a build of the current project with POST /api/builds', async () => {
    const daemon = stubDaemon(({ url, method }) => {
      if (url.pathname === '/api/projects') return json([project('my-app', false)]);
      if (method === 'POST' && url.pathname === '/api/builds') {
        return json({ id: 'b7', projectName: 'my-app' } as Partial<Build>);
      }
      return undefined;
    });
    renderPanel(<ProjectActions />);

    await screen.findByRole('link', { name: 'Download Project' });
    fireEvent.click(screen.getByRole('button', { name: 'Start Build' }));

    await waitFor(() =>
      expect(daemon.requests.filter((r) => r.method === 'POST')).toEqual([
        expect.objectContaining({ path: '/api/builds', body: { projectName: 'my-app' } }),
      ]),
    );
  });

  it("says why a build did not start, in the daemon's words", async () => {
    stubDaemon(({ url, method }) => {
      if (url.pathname === '/api/projects') return json([project('my-app', false)]);
      if (method === 'POST' && url.pathname === '/api/builds') {
        return json({ error: 'There is no project named "my-app".', code: 'PROJECT_NOT_FOUND' }, 404);
      }
      return undefined;
    });
    renderPanel(<ProjectActions />);

    await screen.findByRole('link', { name: 'Download Project' });
    fireEvent.click(screen.getByRole('button', { name: 'Start Build' }));

    expect(await notices().findByText('Build not started')).toBeDefined();
    expect(notices().getByText('There is no project named "my-app".')).toBeDefined();
  });

  it('has nothing to act on before a project exists', async () => {
    stubDaemon(() => undefined);
    renderPanel(<ProjectActions />);

    for (const name of ['Download Project', 'Start Build', 'Download App']) {
      expect(screen.getByRole('button', { name }).getAttribute('aria-disabled')).toBe('true');
    }
    expect(screen.queryByRole('link')).toBeNull();
  });
});
