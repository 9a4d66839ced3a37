import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AUTH_TOKEN_STORAGE_KEY,
  UI_TEXT,
  type AuditEntry,
  type BotInfo,
  type FamilyChatMessage,
  type MemoryCell,
} from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { stubDaemon, type RouteRequest } from '@/test/render-panel.tsx';
import { SESSION_ENDED_TEXT } from '@/features/login/login-error.ts';
import { mergeMessages } from '../family-chat.ts';
import { swarmSummary } from '../swarm-status.ts';
// Loaded up front: the route imports the screen lazily, and a cold transform under load can outlast
// a findBy timeout.
import './university-page.tsx';
import '@/features/login/components/login-page.tsx';

const TOKEN = 'tok-1';
const signedIn = () => window.localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, TOKEN);

/** The Authorization header the app sent with the n-th request to `path` (first by default). */
function authorizationOf(fetchMock: ReturnType<typeof stubDaemon>['fetch'], path: string, method = 'GET') {
  const call = fetchMock.mock.calls.find(
    ([input, init]) =>
      new URL(String(input), 'http://forge.test').pathname === path && (init?.method ?? 'GET') === method,
  );
  if (!call) throw new Error(`no ${method} ${path} was sent`);
  return new Headers(call[1]?.headers).get('authorization');
}

const familyAuthRequired = () =>
  json({ error: 'Family authentication required.', code: 'FAMILY_AUTH_REQUIRED' }, 401);
const serverError = () => json({ error: 'Disk full.', code: 'INTERNAL' }, 500);

async function open(path: string) {
  const app = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'University' });
  return app;
}

const is = (req: RouteRequest, method: string, path: string) =>
  req.method === method && req.url.pathname === path;

beforeEach(() => {
  window.localStorage.clear();
});

describe('university access', () => {
  it('shows the login form, and no tabs, while no token is stored', async () => {
    const { requests } = stubDaemon(() => undefined);
    await open('/university/memory');

    expect(screen.getByLabelText('Username')).toBeDefined();
    expect(screen.getByText('Family access required')).toBeDefined();
    expect(screen.queryByRole('navigation', { name: 'University' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Main Platform' }).getAttribute('href')).toBe('/');
    // Nothing of the family area is fetched for a visitor.
    expect(requests.some((r) => r.path === '/api/memory-cells')).toBe(false);
  });

  it('signing in from a tab stays on that tab, and the token rides on its requests', async () => {
    const { fetch } = stubDaemon((req) => {
      if (is(req, 'POST', '/api/login')) return json({ token: 'tok-9' });
      if (req.url.pathname === '/api/memory-cells') return json([]);
      return undefined;
    });
    const { pathname } = await open('/university/memory');
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'ada' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'a-long-password' } });

    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('No memory cells yet')).toBeDefined();
    expect(pathname()).toBe('/university/memory');
    expect(authorizationOf(fetch, '/api/memory-cells')).toBe('Bearer tok-9');
  });

  it('names the signed-in member from GET /api/family/me', async () => {
    signedIn();
    stubDaemon((req) =>
      is(req, 'GET', '/api/family/me')
        ? json({ name: 'ada', idleExpiresAt: '2030-01-01T00:00:00Z', expiresAt: '2030-01-02T00:00:00Z' })
        : undefined,
    );
    await open('/university');
    expect((await screen.findByText('ada')).parentElement?.textContent).toBe('Signed in as ada');
  });

  it('Logout revokes the token (POST /api/logout), removes it and goes to /login', async () => {
    signedIn();
    const { fetch, requests } = stubDaemon((req) =>
      is(req, 'POST', '/api/logout') ? json({ ok: true }) : undefined,
    );
    const { pathname } = await open('/university');

    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));

    await waitFor(() => expect(pathname()).toBe('/login'));
    expect(requests.some((r) => is(r, 'POST', '/api/logout'))).toBe(true);
    expect(authorizationOf(fetch, '/api/logout', 'POST')).toBe(`Bearer ${TOKEN}`);
    expect(window.localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
    expect(await screen.findByRole('heading', { level: 1, name: 'Login' })).toBeDefined();
    expect(screen.queryByText(SESSION_ENDED_TEXT)).toBeNull();
  });

  it('Logout still signs out here when the daemon cannot be reached', async () => {
    signedIn();
    stubDaemon((req) =>
      is(req, 'POST', '/api/logout') ? Promise.reject(new TypeError('Failed to fetch')) : undefined,
    );
    const { pathname } = await open('/university');

    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));

    await waitFor(() => expect(pathname()).toBe('/login'));
    expect(window.localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('a token the daemon refuses (expired, revoked) is removed and the user goes to /login', async () => {
    signedIn();
    stubDaemon((req) => (req.url.pathname === '/api/memory-cells' ? familyAuthRequired() : undefined));
    const { pathname } = await open('/university/memory');

    await waitFor(() => expect(pathname()).toBe('/login'));
    expect(window.localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
    expect(await screen.findByText(SESSION_ENDED_TEXT)).toBeDefined();
  });

  it('other refusals keep the token: only FAMILY_AUTH_REQUIRED signs out', async () => {
    signedIn();
    stubDaemon((req) =>
      req.url.pathname === '/api/memory-cells'
        ? json({ error: 'Access token required.', code: 'TOKEN_REQUIRED' }, 401)
        : undefined,
    );
    const { pathname } = await open('/university/memory');

    expect(await screen.findByText('Could not load the memory cells.')).toBeDefined();
    expect(pathname()).toBe('/university/memory');
    expect(window.localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBe(TOKEN);
  });
});

describe('university platform controls', () => {
  it('says "Build triggered" while packaging runs, then the returned status', async () => {
    signedIn();
    let finish: (status: string) => void = () => {};
    const { fetch } = stubDaemon((req) =>
      is(req, 'POST', '/api/package-platform')
        ? new Promise<Response>((resolve) => (finish = (status) => resolve(json({ status }))))
        : undefined,
    );
    await open('/university');

    fireEvent.click(screen.getByRole('button', { name: 'Rebuild and package' }));
    expect(await screen.findByText(UI_TEXT.packageTriggered)).toBeDefined();
    expect(authorizationOf(fetch, '/api/package-platform', 'POST')).toBe(`Bearer ${TOKEN}`);

    finish('Packaged forge-1.0.0.zip');
    expect(await screen.findByText('Packaged forge-1.0.0.zip')).toBeDefined();
    expect(screen.queryByText(UI_TEXT.packageTriggered)).toBeNull();
  });

  it('a packaging failure says so with the reason', async () => {
    signedIn();
    stubDaemon((req) => (is(req, 'POST', '/api/package-platform') ? serverError() : undefined));
    await open('/university');

    fireEvent.click(screen.getByRole('button', { name: 'Rebuild and package' }));

    expect(await screen.findByText(UI_TEXT.packageFailed)).toBeDefined();
    expect(screen.getByText('500: Disk full.')).toBeDefined();
  });

  it('packaging refused for the family token: "Build failed - family authentication required", then /login', async () => {
    signedIn();
    stubDaemon((req) => (is(req, 'POST', '/api/package-platform') ? familyAuthRequired() : undefined));
    const { pathname } = await open('/university');

    fireEvent.click(screen.getByRole('button', { name: 'Rebuild and package' }));

    await waitFor(() => expect(pathname()).toBe('/login'));
    expect(await screen.findByText(UI_TEXT.packageFailed)).toBeDefined();
    expect(window.localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
  });

  describe('download', () => {
    const created: Blob[] = [];
    beforeEach(() => {
      created.length = 0;
      // jsdom has no object URLs; the download only needs one to hand to its link.
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => (created.push(blob), 'blob:forge/1'),
        revokeObjectURL: () => {},
      });
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('downloads the latest build with the family token', async () => {
      signedIn();
      const { fetch } = stubDaemon((req) =>
        is(req, 'GET', '/api/download/app')
          ? new Response('zip-bytes', {
              headers: { 'content-disposition': 'attachment; filename="forge-platform-1.0.0.zip"' },
            })
          : undefined,
      );
      await open('/university');

      fireEvent.click(screen.getByRole('button', { name: 'Download latest build' }));

      expect(await screen.findByText('Downloading forge-platform-1.0.0.zip')).toBeDefined();
      expect(authorizationOf(fetch, '/api/download/app')).toBe(`Bearer ${TOKEN}`);
      expect(await created[0]?.text()).toBe('zip-bytes');
    });
  });

  it('lists the installed extensions', async () => {
    signedIn();
    stubDaemon((req) =>
      req.url.pathname === '/api/extensions'
        ? json([{ name: 'kanban', displayName: 'Kanban Board', route: '/ext/kanban' }])
        : undefined,
    );
    await open('/university');

    const list = await screen.findByRole('list', { name: 'Installed extensions' });
    expect(within(list).getByText('Kanban Board')).toBeDefined();
    expect(within(list).getByRole('link', { name: 'Open' }).getAttribute('href')).toBe('/ext/kanban');
  });

  it('shows the audit log, newest first as the daemon sent it', async () => {
    signedIn();
    const entries: AuditEntry[] = [
      { id: 2, at: '2030-01-01T10:05:00Z', action: 'package', actor: 'ada', detail: 'forge-1.0.0.zip' },
      { id: 1, at: '2030-01-01T10:00:00Z', action: 'login-failed', actor: 'bob', detail: '127.0.0.1' },
    ];
    const { fetch } = stubDaemon((req) => (is(req, 'GET', '/api/family/audit') ? json(entries) : undefined));
    await open('/university');

    const log = await screen.findByRole('list', { name: 'Audit log' });
    const items = within(log).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-action'))).toEqual(['package', 'login-failed']);
    expect(within(items[0]!).getByText('Platform packaged')).toBeDefined();
    expect(within(items[0]!).getByText('forge-1.0.0.zip')).toBeDefined();
    expect(within(items[1]!).getByText('Failed sign-in')).toBeDefined();
    expect(within(items[1]!).getByText('bob')).toBeDefined();
    expect(authorizationOf(fetch, '/api/family/audit')).toBe(`Bearer ${TOKEN}`);
  });
});

describe('memory manager', () => {
  const ts = Date.UTC(2025, 0, 2, 3, 4, 5);

  /** A daemon holding memory cells that PUT and DELETE change. */
  function memoryDaemon(initial: MemoryCell[]) {
    const cells = new Map(initial.map((c) => [c.key, c]));
    const stub = stubDaemon((req) => {
      if (is(req, 'GET', '/api/memory-cells')) return json([...cells.values()]);
      const key = decodeURIComponent(req.url.pathname.slice('/api/memory-cells/'.length));
      if (req.method === 'PUT' && req.url.pathname.startsWith('/api/memory-cells/')) {
        const cell = { key, value: (req.body as { value: string }).value, ts: ts + 1000 };
        cells.set(key, cell);
        return json(cell);
      }
      if (req.method === 'DELETE' && req.url.pathname.startsWith('/api/memory-cells/')) {
        if (!cells.delete(key)) return json({ error: 'No such cell.', code: 'NOT_FOUND' }, 404);
        return json({ ok: true, key });
      }
      return undefined;
    });
    return { ...stub, cells };
  }

  it('lists key, value and time', async () => {
    signedIn();
    memoryDaemon([{ key: 'greeting', value: 'hello family', ts }]);
    await open('/university/memory');
    const row = (await screen.findByText('greeting')).closest('tr')!;
    expect(within(row).getByText('hello family')).toBeDefined();
    expect(row.querySelector('time')?.getAttribute('datetime')).toBe('2025-01-02T03:04:05.000Z');
  });

  it('edits a value with PUT /api/memory-cells/:key', async () => {
    signedIn();
    const daemon = memoryDaemon([{ key: 'pet name', value: 'Rex', ts }]);
    await open('/university/memory');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit pet name' }));

    const box = screen.getByRole('textbox', { name: 'Value of pet name' });
    expect((box as HTMLTextAreaElement).value).toBe('Rex');
    fireEvent.change(box, { target: { value: 'Rex the second' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Value of pet name' })).toBeNull());
    const row = screen.getByText('Rex the second').closest('tr')!;
    expect(within(row).getByText('pet name')).toBeDefined();
    expect(daemon.requests.find((r) => r.method === 'PUT')).toMatchObject({
      path: '/api/memory-cells/pet%20name',
      body: { value: 'Rex the second' },
    });
    expect(daemon.cells.get('pet name')?.value).toBe('Rex the second');
  });

  it('deletes a cell after a confirmation (DELETE)', async () => {
    signedIn();
    const daemon = memoryDaemon([
      { key: 'greeting', value: 'hello', ts },
      { key: 'colour', value: 'blue', ts },
    ]);
    await open('/university/memory');

    fireEvent.click(await screen.findByRole('button', { name: 'Delete colour' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Delete the memory cell colour?')).toBeDefined();
    // Cancelling deletes nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(daemon.requests.some((r) => r.method === 'DELETE')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Delete colour' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.queryByText('blue')).toBeNull());
    expect(screen.getByText('hello')).toBeDefined();
    expect(daemon.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      '/api/memory-cells/colour',
    ]);
    expect(daemon.cells.has('colour')).toBe(false);
  });

  it('says why the cells could not be read', async () => {
    signedIn();
    stubDaemon((req) => (req.url.pathname === '/api/memory-cells' ? serverError() : undefined));
    await open('/university/memory');
    expect(await screen.findByText('Could not load the memory cells.')).toBeDefined();
    expect(screen.getByText('500: Disk full.')).toBeDefined();
  });
});

describe('swarm status', () => {
  const bot = (name: string, category: string, status: string, extra: Partial<BotInfo> = {}): BotInfo => ({
    name,
    category,
    status,
    description: `${name} does its job.`,
    currentJob: null,
    jobsRun: 0,
    failures: 0,
    lastJob: null,
    ...extra,
  });

  it('shows the live fleet from GET /api/bots, and bot-status pushes move it', async () => {
    signedIn();
    const fleet = [
      bot('AuthBot', 'services', 'active', { jobsRun: 4, failures: 1 }),
      bot('BuildBot', 'development', 'building', { currentJob: 'build app#12', jobsRun: 9 }),
      bot('DeployBot', 'operations', 'active'),
    ];
    stubDaemon((req) => (is(req, 'GET', '/api/bots') ? json(fleet) : undefined));
    const { socket } = await open('/university/bots');

    expect(await screen.findByText('Swarm working: 3 of 3 bots available; busy: BuildBot.')).toBeDefined();
    const builder = screen.getByText('BuildBot').closest('li')!;
    expect(within(builder).getByText('build app#12')).toBeDefined();
    expect(within(builder).getByText('9 jobs · 0 failed')).toBeDefined();
    expect(within(screen.getByRole('region', { name: 'services' })).getByText('AuthBot')).toBeDefined();
    expect(screen.getByText('4 jobs · 1 failed')).toBeDefined();

    socket.setStatus('connected');
    socket.emit({ type: 'bot-status', botName: 'DeployBot', status: 'error', job: null });

    expect(
      await screen.findByText('Swarm degraded: 2 of 3 bots available; failing: DeployBot.'),
    ).toBeDefined();
    expect(within(screen.getByText('DeployBot').closest('li')!).getByText('error')).toBeDefined();
    expect(swarmSummary([bot('A', 'services', 'active'), bot('B', 'services', 'idle')])).toBe(
      'Swarm online: 2 of 2 bots available.',
    );
  });
});

describe('family chat', () => {
  const message = (id: string, from: string, text: string, at: string): FamilyChatMessage => ({
    id,
    from,
    text,
    at,
  });

  it('shows the history, goes live over /ws, receives and sends messages', async () => {
    signedIn();
    const history = [
      message('m1', 'bob', 'Dinner at 7?', '2030-01-01T18:00:00Z'),
      message('m2', 'ada', 'Yes!', '2030-01-01T18:01:00Z'),
    ];
    const sent = message('m4', 'ada', 'Bringing dessert', '2030-01-01T18:03:00Z');
    const { fetch, requests } = stubDaemon((req) => {
      if (is(req, 'GET', '/api/family/chat')) return json(history);
      if (is(req, 'POST', '/api/family/chat')) return json(sent);
      if (is(req, 'GET', '/api/family/me'))
        return json({
          name: 'ada',
          idleExpiresAt: '2030-01-02T00:00:00Z',
          expiresAt: '2030-01-03T00:00:00Z',
        });
      return undefined;
    });
    const { socket } = await open('/university/chat');

    const chat = await screen.findByRole('log', { name: 'Family chat' });
    expect(within(chat).getByText('Dinner at 7?')).toBeDefined();
    expect(authorizationOf(fetch, '/api/family/chat')).toBe(`Bearer ${TOKEN}`);
    expect(screen.getByText('Not live')).toBeDefined();
    expect(screen.queryByText(/simulated/i)).toBeNull();

    // The socket opens: this connection signs in as family, and the daemon accepts it.
    socket.setStatus('connected');
    expect(socket.sent).toEqual([{ type: 'family-auth', token: TOKEN }]);
    socket.emit({ type: 'family-auth', name: 'ada' });
    expect(await screen.findByText('Live')).toBeDefined();

    // Another member writes: it arrives live.
    socket.emit({ type: 'family-chat', message: message('m3', 'bob', 'Great', '2030-01-01T18:02:00Z') });
    expect(await within(chat).findByText('Great')).toBeDefined();
    expect(within(chat).getByText('Great').closest('li')?.getAttribute('data-from')).toBe('bob');

    // Sending: POST, the message joins once even when its /ws echo arrives too.
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), {
      target: { value: '  Bringing dessert ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await within(chat).findByText('Bringing dessert')).toBeDefined();
    expect(requests.find((r) => is(r, 'POST', '/api/family/chat'))?.body).toEqual({
      text: 'Bringing dessert',
    });
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLInputElement).value).toBe('');
    socket.emit({ type: 'family-chat', message: sent });
    // A later push proves the echo has been handled (pushes apply in order).
    socket.emit({ type: 'family-chat', message: message('m5', 'bob', 'Yum', '2030-01-01T18:04:00Z') });
    expect(await within(chat).findByText('Yum')).toBeDefined();
    expect(within(chat).getAllByText('Bringing dessert')).toHaveLength(1);
    expect(
      within(chat)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('p')?.textContent),
    ).toEqual(['Dinner at 7?', 'Yes!', 'Great', 'Bringing dessert', 'Yum']);
    // Own messages are labelled as such.
    expect(within(chat).getByText('Bringing dessert').closest('li')?.textContent).toMatch(/^You · /);

    // After a reconnect the connection signs in again.
    socket.setStatus('disconnected');
    socket.setStatus('connected');
    expect(socket.sent.at(-1)).toEqual({ type: 'family-auth', token: TOKEN });
  });

  it('says why a message was not sent, and keeps the draft', async () => {
    signedIn();
    stubDaemon((req) => {
      if (is(req, 'GET', '/api/family/chat')) return json([]);
      if (is(req, 'POST', '/api/family/chat')) return serverError();
      return undefined;
    });
    await open('/university/chat');
    expect(await screen.findByText('No messages yet')).toBeDefined();

    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Message not sent: 500: Disk full.');
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLInputElement).value).toBe('Hello');
  });

  it('merges messages by id, oldest first', () => {
    const a = message('a', 'x', '1', '2030-01-01T00:00:01Z');
    const b = message('b', 'x', '2', '2030-01-01T00:00:02Z');
    const c = message('c', 'x', '3', '2030-01-01T00:00:03Z');
    expect(mergeMessages([a, c], [b, c, b]).map((m) => m.id)).toEqual(['a', 'b', 'c']);
  });
});
