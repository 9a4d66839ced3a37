import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WorkerInfo, WorkersResponse } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { daemonFailure, DAEMON_FAILURE_TEXT, stubDaemon } from '@/test/render-panel.tsx';
import { workerCommand } from './workers-section.tsx';
// Loaded up front: the route imports the screen lazily, and a cold transform under load can outlast
// a findBy timeout.
import './bot-factory-page.tsx';

const secondsAgo = (s: number) => new Date(Date.now() - s * 1_000).toISOString();

const worker = (over: Partial<WorkerInfo> & Pick<WorkerInfo, 'name'>): WorkerInfo =>
  WorkerInfo.parse({
    host: `${over.name}.build.lan`,
    version: '1.0.0',
    concurrency: 2,
    running: [],
    jobsDone: 0,
    status: 'online',
    lastSeen: secondsAgo(1),
    since: secondsAgo(600),
    ...over,
  });

const QUEUE_URL = 'redis://:***@queue.lan:6379';

/** The daemon's bots (none: the cards are not under test) and GET /api/workers answering `workers()`. */
function daemon(workers: () => WorkersResponse | Response) {
  return stubDaemon(({ method, url }) => {
    if (method !== 'GET') return undefined;
    if (url.pathname === '/api/bots') return json([]);
    if (url.pathname === '/api/workers') {
      const answer = workers();
      return answer instanceof Response ? answer : json(WorkersResponse.parse(answer));
    }
    return undefined;
  });
}

const section = () => screen.findByRole('region', { name: 'Workers' });
const row = (name: string) => screen.getByRole('row', { name });
const cells = (name: string) =>
  within(row(name))
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('Bot Factory: workers', () => {
  it('says in one line that builds run in the daemon when the queue is in-process', async () => {
    daemon(() => ({ queue: 'in-process', queueUrl: null, workers: [] }));
    renderApp('/bot-factory');

    const workers = await section();
    await waitFor(() =>
      expect(workers.textContent).toBe(
        'Builds run in this daemon. Start forge worker processes and set a queue to spread builds across machines.',
      ),
    );
    expect(within(workers).queryByRole('table')).toBeNull();
    expect(within(workers).getAllByRole('paragraph')).toHaveLength(1);
  });

  it('gives the command that starts a worker when the bullmq queue has none, then lists one as it joins', async () => {
    daemon(() => ({ queue: 'bullmq', queueUrl: QUEUE_URL, workers: [] }));
    const { socket } = renderApp('/bot-factory');

    const workers = await section();
    const command = workerCommand(QUEUE_URL, window.location.origin);
    expect(command).toBe(`forge worker --queue ${QUEUE_URL} --url ${window.location.origin}`);
    await waitFor(() => expect(workers.textContent).toBe(`No workers yet: start one with ${command}.`));

    // A worker says hello: the daemon pushes the new list, and the table replaces the hint at once.
    socket.emit({ type: 'workers', queue: 'bullmq', workers: [worker({ name: 'ci-1' })] });
    expect(cells('ci-1')).toEqual(['ci-1', 'ci-1.build.lan', '0/2', 'just now', 'online']);
    expect(within(workers).queryByText(/No workers yet/)).toBeNull();
  });

  it('lists each worker: host, jobs of its concurrency, last seen, and online green / lost red', async () => {
    daemon(() => ({
      queue: 'bullmq',
      queueUrl: QUEUE_URL,
      workers: [
        worker({ name: 'ci-2', status: 'lost', lastSeen: secondsAgo(190) }),
        worker({ name: 'ci-1', running: ['b7'], concurrency: 4, lastSeen: secondsAgo(130) }),
      ],
    }));
    renderApp('/bot-factory');

    const workers = await section();
    await within(workers).findByRole('table');
    // Online first, then lost.
    const rows = within(workers).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual(['ci-1', 'ci-2']);
    // Minutes, so a slow machine's extra second cannot change the text.
    expect(cells('ci-1')).toEqual(['ci-1', 'ci-1.build.lan', '1/4', '2 min ago', 'online']);
    expect(cells('ci-2')).toEqual(['ci-2', 'ci-2.build.lan', '0/2', '3 min ago', 'lost']);
    expect(within(row('ci-1')).getByTestId('worker-jobs').getAttribute('title')).toBe('Running b7');

    const [online, lost] = within(workers).getAllByTestId('worker-status');
    expect(online!.className).toMatch(/text-online/);
    expect(lost!.className).toMatch(/text-error/);
    // Status colours are for the status alone.
    expect(row('ci-1').querySelectorAll('[class*="text-online"]')).toHaveLength(1);
    expect(within(workers).getByText('1 online · 1 lost')).toBeDefined();
    expect(within(workers).getByLabelText('Queue').textContent).toBe(`bullmq ${QUEUE_URL}`);
  });

  it('follows the workers message: a worker takes a job, another goes quiet', async () => {
    daemon(() => ({
      queue: 'bullmq',
      queueUrl: QUEUE_URL,
      workers: [worker({ name: 'ci-1' }), worker({ name: 'ci-2' })],
    }));
    const { socket } = renderApp('/bot-factory');
    await within(await section()).findByRole('table');
    expect(cells('ci-2')[4]).toBe('online');

    socket.emit({
      type: 'workers',
      queue: 'bullmq',
      workers: [
        worker({ name: 'ci-1', running: ['b8', 'b9'] }),
        worker({ name: 'ci-2', status: 'lost', lastSeen: secondsAgo(35) }),
      ],
    });

    // At once, from the message: the GET still answers the old list.
    expect(cells('ci-1')[2]).toBe('2/2');
    expect(cells('ci-2')[3]).toMatch(/^3\d s ago$/);
    expect(cells('ci-2')[4]).toBe('lost');
    expect(within(row('ci-2')).getByTestId('worker-status').className).toMatch(/text-error/);
  });

  it('says when the workers cannot be read, and Try again reads them', async () => {
    let fail = true;
    daemon(() => (fail ? daemonFailure() : { queue: 'in-process', queueUrl: null, workers: [] }));
    renderApp('/bot-factory');

    const alert = await within(await section()).findByRole('alert');
    expect(alert.textContent).toContain('Could not read the workers:');
    expect(alert.textContent).toContain(DAEMON_FAILURE_TEXT);

    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(await section()).findByText(/^Builds run in this daemon\./)).toBeDefined();
  });

  it('shows nothing for a daemon older than scale-out (no workers route)', async () => {
    const { requests } = daemon(() => json({ error: 'No such API route.', code: 'NOT_FOUND' }, 404));
    renderApp('/bot-factory');
    await screen.findByRole('list', { name: 'Bots' });
    await waitFor(() => expect(requests.some((r) => r.url.pathname === '/api/workers')).toBe(true));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Workers' })).toBeNull());
  });
});
