import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LIVE_VIEWER_SHOW, LOCAL_WORKER, ServerMessage, type Build, type Project } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { buildStream, logEntry, makeBlueprint, makeBuild, makeStep } from '@forge/testing/fixtures';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { BlueprintCard } from '@/features/blueprint/components/blueprint-card.tsx';
import { LiveDevelopment } from './live-development.tsx';

function renderViewer() {
  stubDaemon(() => undefined);
  return renderPanel(<LiveDevelopment />);
}

const project = (name: string): Project => ({
  name,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastBuild: null,
  hasArtifact: false,
});

describe('Live Development viewer (docs/product.md#dashboard-widgets)', () => {
  it('starts idle with no project', () => {
    renderViewer();
    expect(screen.getByLabelText('Stage: Idle').textContent).toBe('Idle');
    expect(screen.getByLabelText('Project: none').textContent).toBe('No project');
    expect(screen.getByText('No build messages yet.')).toBeDefined();
  });

  it('follows a build: project, stage label, builder bots, live output', () => {
    const { socket } = renderViewer();
    const site = buildStream('b1', 'site');
    for (const message of site.start(['BuildBot', 'UiBot', 'BuildBot'])) socket.emit(message);
    socket.emit(site.stage('build-start', 2));
    socket.emit(site.output('> vite build\nbuilt in 812ms\n', 2, 3));
    socket.emit(site.stderr('\u001b[33mwarn\u001b[39m chunk is large', 4, 4));

    expect(screen.getByLabelText('Project: site').textContent).toBe('site');
    expect(screen.getByLabelText('Stage: Building').textContent).toBe('Building');
    const bots = within(screen.getByRole('list', { name: 'Builder bots' })).getAllByRole('listitem');
    expect(bots.map((b) => b.textContent)).toEqual(['BuildBot', 'UiBot']);
    // The build's log in stored order, colour codes removed.
    expect(screen.getByLabelText('Build output').textContent).toBe(
      'Receiving site.zip as project "site".\n> vite build\nbuilt in 812ms\nwarn chunk is large',
    );
  });

  it('a new build shows its own bots and output, not the last one’s', () => {
    const { socket } = renderViewer();
    const old = buildStream('b1', 'old');
    for (const message of old.start(['BuildBot'])) socket.emit(message);
    socket.emit(old.output('old output', 2, 1));
    socket.emit(old.finished('failed', 2));
    const next = buildStream('b2', 'new');
    for (const message of next.start(['UiBot'])) socket.emit(message);

    expect(screen.getByLabelText('Project: new')).toBeDefined();
    expect(screen.getByLabelText('Stage: Assigning Bots')).toBeDefined();
    const bots = within(screen.getByRole('list', { name: 'Builder bots' })).getAllByRole('listitem');
    expect(bots.map((b) => b.textContent)).toEqual(['UiBot']);
    expect(screen.getByLabelText('Build output').textContent).not.toContain('old output');
  });

  it(`shows the last ${LIVE_VIEWER_SHOW} messages, newest first`, () => {
    const { socket } = renderViewer();
    const site = buildStream('b1', 'site');
    for (let i = 1; i <= 14; i++) socket.emit(site.output(`line ${i}`, i, i));

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
    const site = buildStream('b1', 'site');
    socket.emit(site.stage('bot-assignment', 0));
    socket.emit(site.stage('no-build-needed', 1));
    socket.emit(site.complete(['index.html', 'app.js'], 2));
    expect(screen.getByLabelText('Stage: Integration Available')).toBeDefined();
    expect(screen.getByText('Output ready: 2 files')).toBeDefined();
    // A static site has nothing to build: no output, and no invitation to upload either.
    expect(screen.getByText('No command output in this build yet.')).toBeDefined();
  });

  it('says a build is queued, and when it was cancelled', () => {
    const { socket } = renderViewer();
    const site = buildStream('b1', 'site');
    socket.emit(site.stage('starting', 0, 'queued'));
    expect(screen.getByLabelText('Stage: Starting · queued')).toBeDefined();
    socket.emit(site.finished('cancelled', 1));
    expect(screen.getByLabelText('Stage: Idle · cancelled')).toBeDefined();
  });
});

describe('one build, one state on every panel', () => {
  it('shows the last build of the project from its record, then /ws; a stale record never moves it back', async () => {
    let latest: Build = makeBuild({
      id: 'b1',
      projectName: 'site',
      stages: [
        ['starting', 0],
        ['bot-assignment', 1],
        ['build-start', 2],
      ],
      blueprint: makeBlueprint(),
    });
    const daemon = stubDaemon(({ url }) => {
      if (url.pathname === '/api/projects') return json([project('site')]);
      if (url.pathname === '/api/builds') return json([latest]);
      return undefined;
    });
    const { socket } = renderPanel(
      <>
        <LiveDevelopment />
        <BlueprintCard />
      </>,
    );
    const plan = () => within(screen.getByRole('region', { name: 'Build plan' }));

    // Before any live message: the record, on both panels.
    expect(await screen.findByLabelText('Stage: Building')).toBeDefined();
    expect(screen.getByLabelText('Project: site')).toBeDefined();
    expect(plan().getByText('Building')).toBeDefined();

    // The build fails on /ws; the record read again right after is an older copy (still running).
    const reads = daemon.requests.filter((r) => r.url.pathname === '/api/builds').length;
    socket.emit(buildStream('b1', 'site').finished('failed', 9));
    await waitFor(() =>
      expect(daemon.requests.filter((r) => r.url.pathname === '/api/builds').length).toBeGreaterThan(reads),
    );
    await waitFor(() => expect(screen.getByLabelText('Stage: Build Failed')).toBeDefined());
    expect(plan().getByText('Build Failed')).toBeDefined();
    expect(plan().getByText('vite')).toBeDefined();

    // A newer record (a rebuild) takes over both panels.
    latest = makeBuild({ id: 'b2', projectName: 'site', createdAt: '2026-01-02T03:05:00.000Z' });
    socket.emit(buildStream('b2', 'site').stage('starting', 0, 'queued'));
    await waitFor(() => expect(screen.getByLabelText('Stage: Starting · queued')).toBeDefined());
    await waitFor(() => expect(plan().getByText('Starting · queued')).toBeDefined());
  });

  it("shows a finished build's bots and the stored tail of its log when it has no live lines", async () => {
    const built = makeBuild({
      id: 'b1',
      projectName: 'site',
      stages: [
        ['starting', 0],
        ['bot-assignment', 1],
        ['build-start', 2],
        ['build-success', 3],
        ['integration-available', 4],
      ],
      steps: [
        makeStep({ name: 'build', botName: 'BuildBot' }),
        makeStep({ name: 'check', botName: 'UiBot' }),
      ],
      logCount: 2,
    });
    const daemon = stubDaemon(({ url }) => {
      if (url.pathname === '/api/projects') return json([project('site')]);
      if (url.pathname === '/api/builds') return json([built]);
      if (url.pathname === '/api/builds/b1/logs') {
        return json({
          entries: [logEntry(1, '$ npm run build'), logEntry(2, 'built in 1s')],
          truncated: false,
          next: 2,
        });
      }
      return undefined;
    });
    renderPanel(<LiveDevelopment />);

    expect(await screen.findByLabelText('Stage: Integration Available')).toBeDefined();
    // A record from before scale-out names no worker: nothing is claimed, least of all "queued".
    expect(built.worker).toBeNull();
    expect(screen.queryByLabelText(/^Worker:/)).toBeNull();
    await waitFor(() =>
      expect(screen.getByLabelText('Build output').textContent).toBe('$ npm run build\nbuilt in 1s'),
    );
    const bots = within(screen.getByRole('list', { name: 'Builder bots' })).getAllByRole('listitem');
    expect(bots.map((b) => b.textContent)).toEqual(['BuildBot', 'UiBot']);
    expect(
      daemon.requests.filter((r) => r.url.pathname === '/api/builds/b1/logs').map((r) => r.path),
    ).toEqual(['/api/builds/b1/logs?after=0&limit=200']);
  });
});

describe('where the build runs (scale-out)', () => {
  it('names the worker from build-stage, and "local" for a build the daemon ran itself', () => {
    const { socket } = renderViewer();
    const site = buildStream('b1', 'site');
    socket.emit(site.stage('starting', 0, 'queued'));
    // Queued on an unknown queue: not started anywhere yet.
    expect(screen.getByLabelText('Worker: —').getAttribute('title')).toBe('Queued: not started yet');

    socket.emit(ServerMessage.parse({ ...site.stage('build-start', 1), worker: 'ci-1' }));
    const chip = screen.getByLabelText('Worker: on ci-1');
    expect(chip.textContent).toBe('on ci-1');
    expect(chip.getAttribute('title')).toBe('Runs on the worker ci-1');
    // Where it runs is not a status: no status colour.
    expect(chip.className).not.toMatch(/text-(online|pending|error)/);
    // The finish message does not forget it.
    socket.emit(site.finished('succeeded', 2));
    expect(screen.getByLabelText('Worker: on ci-1')).toBeDefined();

    const other = buildStream('b2', 'app');
    socket.emit(ServerMessage.parse({ ...other.stage('build-start', 3), worker: LOCAL_WORKER }));
    expect(screen.getByLabelText('Worker: local').textContent).toBe('local');
  });

  it('says a queued build waits for a worker when the daemon queues on bullmq', () => {
    const { socket } = renderViewer();
    socket.emit({ type: 'workers', queue: 'bullmq', workers: [] });
    socket.emit(buildStream('b1', 'site').stage('starting', 0, 'queued'));
    expect(screen.getByLabelText('Worker: waiting for a worker')).toBeDefined();
  });

  it('shows the worker of a build read from its record', async () => {
    const built = makeBuild({
      id: 'b1',
      projectName: 'site',
      stages: [
        ['starting', 0],
        ['build-start', 2],
        ['build-success', 3],
      ],
      worker: 'ci-2',
    });
    stubDaemon(({ url }) => {
      if (url.pathname === '/api/projects') return json([project('site')]);
      if (url.pathname === '/api/builds') return json([built]);
      return undefined;
    });
    renderPanel(<LiveDevelopment />);
    expect((await screen.findByLabelText('Worker: on ci-2')).textContent).toBe('on ci-2');
  });
});
