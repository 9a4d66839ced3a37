import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LIVE_VIEWER_SHOW } from '@forge/shared';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { LiveDevelopment } from './live-development.tsx';

function renderViewer() {
  stubDaemon(() => undefined);
  return renderPanel(<LiveDevelopment />);
}

describe('Live Development viewer (spec §2.7)', () => {
  it('starts idle with no project', () => {
    renderViewer();
    expect(screen.getByLabelText('Stage: Idle').textContent).toBe('Idle');
    expect(screen.getByLabelText('Project: none').textContent).toBe('No project');
    expect(screen.getByText('No build messages yet.')).toBeDefined();
  });

  it('follows a build: project, stage label, builder bots, live output', () => {
    const { socket } = renderViewer();
    socket.emit({ type: 'rapid-build-start', projectName: 'site' });
    socket.emit({ type: 'bot-assigned', botName: 'BuildBot', projectName: 'site' });
    socket.emit({ type: 'bot-assigned', botName: 'UiBot', projectName: 'site' });
    socket.emit({ type: 'build-stage', stage: 'build-start', projectName: 'site' });
    socket.emit({ type: 'build-output', output: '> vite build\nbuilt in 812ms\n', projectName: 'site' });

    expect(screen.getByLabelText('Project: site').textContent).toBe('site');
    expect(screen.getByLabelText('Stage: Building').textContent).toBe('Building');
    const bots = within(screen.getByRole('list', { name: 'Builder bots' })).getAllByRole('listitem');
    expect(bots.map((b) => b.textContent)).toEqual(['BuildBot', 'UiBot']);
    expect(screen.getByLabelText('Build output').textContent).toBe('> vite build\nbuilt in 812ms');
  });

  it('a new build clears the bots and output of the last one', () => {
    const { socket } = renderViewer();
    socket.emit({ type: 'bot-assigned', botName: 'BuildBot', projectName: 'old' });
    socket.emit({ type: 'build-output', output: 'old output', projectName: 'old' });
    socket.emit({ type: 'build-stage', stage: 'build-failed', projectName: 'old' });
    socket.emit({ type: 'rapid-build-start', projectName: 'new' });

    expect(screen.getByLabelText('Stage: Starting')).toBeDefined();
    expect(screen.queryByRole('list', { name: 'Builder bots' })).toBeNull();
    expect(screen.queryByLabelText('Build output')).toBeNull();
  });

  it(`shows the last ${LIVE_VIEWER_SHOW} messages, newest first`, () => {
    const { socket } = renderViewer();
    for (let i = 1; i <= 14; i++)
      socket.emit({ type: 'build-output', output: `line ${i}`, projectName: 'site' });

    const items = within(screen.getByRole('list', { name: 'Recent build messages' })).getAllByRole(
      'listitem',
    );
    expect(items).toHaveLength(LIVE_VIEWER_SHOW);
    expect(items[0]!.textContent).toContain('line 14');
    expect(items.at(-1)!.textContent).toContain('line 5');
    expect(screen.getByText('Recent messages (last 10 of 14)')).toBeDefined();
  });

  it('shows Integration Available when the build output is ready', () => {
    const { socket } = renderViewer();
    socket.emit({
      type: 'build_complete',
      buildOutput: { projectName: 'site', buildPath: '/out/site', files: ['index.html', 'app.js'] },
    });
    expect(screen.getByLabelText('Stage: Integration Available')).toBeDefined();
    expect(screen.getByText('Output ready: 2 files')).toBeDefined();
    // A static site has nothing to build: no output, and no invitation to upload either.
    expect(screen.getByText('No command output in this build yet.')).toBeDefined();
  });
});
