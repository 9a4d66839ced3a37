import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_TOKEN_STORAGE_KEY, UI_TEXT } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { routeQueryKey } from '@/lib/query-client.ts';
import {
  DAEMON_FAILURE_TEXT,
  daemonFailure,
  renderPanel,
  stubDaemon,
  type RouteRequest,
} from '@/test/render-panel.tsx';
import { ExtensionManager } from './extension-manager.tsx';
import { PackageButton } from './package-button.tsx';

const notices = () => within(screen.getByRole('region', { name: 'Notifications (F8)' }));

/** Captures multipart bodies too (the shared stub only parses JSON). */
function daemonWith(handler: (request: RouteRequest, init?: RequestInit) => Response | undefined) {
  const bodies: unknown[] = [];
  const daemon = stubDaemon((request) => handler(request));
  const original = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.body instanceof FormData) bodies.push(init.body);
    return original(input, init);
  }) as typeof fetch;
  return { ...daemon, bodies };
}

const TOKEN = 'tok-7';

/** The manager at /, with a /login screen to land on. */
function renderManagerWithLogin() {
  renderPanel(
    <MemoryRouter>
      <Routes>
        <Route path="/" element={<ExtensionManager />} />
        <Route path="/login" element={<p>login screen</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

const familyAuthRequired = () =>
  json({ error: 'Family authentication required.', code: 'FAMILY_AUTH_REQUIRED' }, 401);

describe('Package (docs/product.md#dashboard, docs/product.md#error-texts)', () => {
  beforeEach(() => window.localStorage.clear());

  it('says "Build failed - family authentication required" when packaging is refused', async () => {
    stubDaemon(({ url }) => (url.pathname === '/api/package-platform' ? daemonFailure() : undefined));
    renderPanel(
      <MemoryRouter>
        <PackageButton />
      </MemoryRouter>,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Package' }));

    expect(await notices().findByText(UI_TEXT.packageFailed)).toBeDefined();
  });

  it('shows the returned status, or "Build triggered" when it is empty', async () => {
    let status = 'Packaging started';
    const daemon = stubDaemon(({ url, method }) =>
      method === 'POST' && url.pathname === '/api/package-platform' ? json({ status }) : undefined,
    );
    renderPanel(
      <MemoryRouter>
        <PackageButton />
      </MemoryRouter>,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Package' }));
    expect(await notices().findByText('Packaging started')).toBeDefined();

    status = '';
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Package' }).hasAttribute('disabled')).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Package' }));
    expect(await notices().findByText(UI_TEXT.packageTriggered)).toBeDefined();
    expect(daemon.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
  });
});

describe('Repackage Platform needs the family token', () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(() => window.localStorage.clear());

  it('sends the stored token with the package request', async () => {
    window.localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, TOKEN);
    const daemon = stubDaemon(({ url, method }) =>
      method === 'POST' && url.pathname === '/api/package-platform'
        ? json({ status: 'Packaged' })
        : undefined,
    );
    renderManagerWithLogin();

    fireEvent.click(screen.getByRole('button', { name: 'Repackage Platform' }));

    expect(await notices().findByText('Packaged')).toBeDefined();
    const call = daemon.fetch.mock.calls.find(([input]) => String(input).endsWith('/api/package-platform'));
    expect(new Headers(call?.[1]?.headers).get('authorization')).toBe(`Bearer ${TOKEN}`);
  });

  it('a 401 says "Build failed - family authentication required", then goes to /login', async () => {
    stubDaemon(({ url, method }) =>
      method === 'POST' && url.pathname === '/api/package-platform' ? familyAuthRequired() : undefined,
    );
    renderManagerWithLogin();

    fireEvent.click(screen.getByRole('button', { name: 'Repackage Platform' }));

    expect(await notices().findByText(UI_TEXT.packageFailed)).toBeDefined();
    expect(await screen.findByText('login screen')).toBeDefined();
  });
});

describe('platform download link (GET /api/download/app)', () => {
  const created: Blob[] = [];
  const revoked: string[] = [];
  let clicked: { href: string; download: string }[] = [];
  beforeEach(() => {
    window.localStorage.clear();
    created.length = 0;
    revoked.length = 0;
    clicked = [];
    // jsdom has no object URLs, and its link clicks would try to navigate.
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => (created.push(blob), `blob:forge/${created.length}`),
      revokeObjectURL: (url: string) => void revoked.push(url),
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    window.localStorage.clear();
  });

  const link = () => screen.getByRole('link', { name: '/api/download/app' });

  it('downloads with the family token, under the name the daemon gave', async () => {
    window.localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, TOKEN);
    const daemon = stubDaemon(({ url }) =>
      url.pathname === '/api/download/app'
        ? new Response('zip-bytes', {
            headers: { 'content-disposition': 'attachment; filename="forge-platform-1.2.0.zip"' },
          })
        : undefined,
    );
    renderManagerWithLogin();

    expect(link().getAttribute('href')).toBe('/api/download/app');
    fireEvent.click(link());

    await waitFor(() =>
      expect(clicked).toEqual([{ href: 'blob:forge/1', download: 'forge-platform-1.2.0.zip' }]),
    );
    expect(await created[0]?.text()).toBe('zip-bytes');
    const call = daemon.fetch.mock.calls.find(([input]) => String(input).endsWith('/api/download/app'));
    expect(new Headers(call?.[1]?.headers).get('authorization')).toBe(`Bearer ${TOKEN}`);
    await waitFor(() => expect(revoked).toEqual(['blob:forge/1']));
    expect(screen.queryByText('login screen')).toBeNull();
  });

  it('without a stored token goes to /login and asks the daemon nothing', async () => {
    const daemon = stubDaemon(() => undefined);
    renderManagerWithLogin();

    fireEvent.click(link());

    expect(await screen.findByText('login screen')).toBeDefined();
    expect(daemon.requests.some((r) => r.path === '/api/download/app')).toBe(false);
    expect(clicked).toEqual([]);
  });

  it("shows the daemon's reason when there is nothing to download yet (404 NO_PACKAGE)", async () => {
    window.localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, TOKEN);
    stubDaemon(({ url }) =>
      url.pathname === '/api/download/app'
        ? json({ error: 'No platform package yet: Repackage Platform first.', code: 'NO_PACKAGE' }, 404)
        : undefined,
    );
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderManagerWithLogin();

    fireEvent.click(link());

    expect(await notices().findByText('Download failed')).toBeDefined();
    expect(notices().getByText('No platform package yet: Repackage Platform first.')).toBeDefined();
    expect(clicked).toEqual([]);
    // A missing package is not a sign-in problem: the token stays.
    expect(window.localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBe(TOKEN);
  });
});

describe('extension manager (docs/product.md#dashboard-widgets)', () => {
  it('lists installed extensions with their version and an Open button that goes to their route', async () => {
    stubDaemon(({ url }) =>
      url.pathname === '/api/extensions'
        ? json([{ name: 'kanban', displayName: 'Kanban board', route: '/ext/kanban', version: '1.2.0' }])
        : undefined,
    );
    renderPanel(
      <MemoryRouter>
        <Routes>
          <Route path="/" element={<ExtensionManager />} />
          <Route path="/ext/kanban" element={<p>kanban route</p>} />
        </Routes>
      </MemoryRouter>,
    );

    const open = await screen.findByRole('link', { name: 'Open Kanban board' });
    expect(open.getAttribute('href')).toBe('/ext/kanban');
    expect(open.getAttribute('target')).toBeNull();
    expect(screen.getByRole('list', { name: 'Installed extensions' }).textContent).toContain('v1.2.0');

    fireEvent.click(open);
    expect(await screen.findByText('kanban route')).toBeDefined();
  });

  it('removes an extension only after it was confirmed, then refreshes the list', async () => {
    let installed = [{ name: 'kanban', displayName: 'Kanban board', route: '/ext/kanban' }];
    const daemon = stubDaemon(({ url, method }) => {
      if (method === 'DELETE' && url.pathname === '/api/extensions/kanban') {
        installed = [];
        return json({ ok: true, name: 'kanban' });
      }
      return url.pathname === '/api/extensions' ? json(installed) : undefined;
    });
    renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );

    fireEvent.click(await screen.findByRole('button', { name: 'Remove Kanban board' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Are you sure you want to remove Kanban board?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(daemon.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Remove Kanban board' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));

    expect((await screen.findByRole('status')).textContent).toContain('Removed Kanban board.');
    expect(await screen.findByText('No extensions installed.')).toBeDefined();
    expect(daemon.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      '/api/extensions/kanban',
    ]);
  });

  it('shows why a remove was refused', async () => {
    stubDaemon(({ url, method }) => {
      if (method === 'DELETE') {
        return json(
          { error: 'There is no installed extension with that name.', code: 'EXTENSION_NOT_FOUND', hint: '' },
          404,
        );
      }
      return url.pathname === '/api/extensions'
        ? json([{ name: 'kanban', displayName: 'Kanban board', route: '/ext/kanban' }])
        : undefined;
    });
    renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );

    fireEvent.click(await screen.findByRole('button', { name: 'Remove Kanban board' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));

    expect((await screen.findByRole('alert')).textContent).toContain(
      'There is no installed extension with that name.',
    );
  });

  it("shows pending, then the daemon's reason when a ZIP is refused (a bad manifest names the field)", async () => {
    let answer: (response: Response) => void = () => {};
    const answered = new Promise<Response>((resolve) => (answer = resolve));
    stubDaemon(({ url, method }) =>
      method === 'POST' && url.pathname === '/api/upload-extension' ? answered : undefined,
    );
    renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );

    fireEvent.change(screen.getByLabelText('Extension ZIP file'), {
      target: { files: [new File(['PK'], 'bad.zip')] },
    });

    const pending = await screen.findByText(/Installing/, { selector: 'p' });
    expect(pending.textContent).toContain('bad.zip');
    expect(screen.queryByRole('alert')).toBeNull();
    answer(
      json(
        {
          error: 'forge-extension.json: route must be a path such as "/ext/hello" (lowercase, dashes)',
          code: 'EXTENSION_INVALID',
          hint: 'See docs/extensions.md.',
        },
        400,
      ),
    );

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('forge-extension.json: route must be a path');
    expect(screen.queryByText(/Installing/, { selector: 'p' })).toBeNull();
  });

  it('says which version an upgrade replaced', async () => {
    daemonWith(({ url, method }) =>
      method === 'POST' && url.pathname === '/api/upload-extension'
        ? json({
            ok: true,
            extension: {
              name: 'kanban',
              displayName: 'Kanban board',
              route: '/ext/kanban',
              version: '1.1.0',
            },
            upgradedFrom: '1.0.0',
          })
        : undefined,
    );
    renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );

    fireEvent.change(screen.getByLabelText('Extension ZIP file'), {
      target: { files: [new File(['PK'], 'kanban.zip')] },
    });

    expect((await screen.findByRole('status')).textContent).toContain(
      'Upgraded Kanban board from 1.0.0 to 1.1.0.',
    );
  });

  it("says why the list is unavailable instead of showing one, in the daemon's words", async () => {
    stubDaemon(({ url }) => (url.pathname === '/api/extensions' ? daemonFailure() : undefined));
    renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );

    expect(await screen.findByText(`Installed extensions unavailable: ${DAEMON_FAILURE_TEXT}`)).toBeDefined();
    expect(screen.queryByRole('list', { name: 'Installed extensions' })).toBeNull();
  });

  it('silently ignores a file that is not a ZIP', async () => {
    const daemon = daemonWith(() => undefined);
    renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );

    fireEvent.change(screen.getByLabelText('Extension ZIP file'), {
      target: { files: [new File(['x'], 'readme.md')] },
    });
    fireEvent.drop(screen.getByRole('group', { name: 'Extension upload' }), {
      dataTransfer: { files: [new File(['x'], 'photo.png')], types: ['Files'] },
    });

    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(daemon.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('installs a dropped ZIP as multipart "zipfile" and shows the failure message in a banner', async () => {
    const daemon = daemonWith(({ url, method }) =>
      method === 'POST' && url.pathname === '/api/upload-extension' ? daemonFailure() : undefined,
    );
    renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );

    fireEvent.drop(screen.getByRole('group', { name: 'Extension upload' }), {
      dataTransfer: { files: [new File(['PK'], 'kanban.zip')], types: ['Files'] },
    });

    expect((await screen.findByRole('alert')).textContent).toContain(DAEMON_FAILURE_TEXT);
    const form = daemon.bodies[0] as FormData;
    expect((form.get('zipfile') as File).name).toBe('kanban.zip');
  });

  it('shows a success banner and refreshes the list after an install', async () => {
    let installed: unknown[] = [];
    const daemon = daemonWith(({ url, method }) => {
      if (method === 'POST' && url.pathname === '/api/upload-extension') {
        installed = [{ name: 'kanban', displayName: 'Kanban board', route: '/ext/kanban' }];
        return json({ ok: true, extension: installed[0] });
      }
      return url.pathname === '/api/extensions' ? json(installed) : undefined;
    });
    renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );
    expect(await screen.findByText('No extensions installed.')).toBeDefined();

    fireEvent.change(screen.getByLabelText('Extension ZIP file'), {
      target: { files: [new File(['PK'], 'kanban.ZIP')] },
    });

    expect((await screen.findByRole('status')).textContent).toContain('Installed Kanban board.');
    expect(await screen.findByRole('link', { name: 'Open Kanban board' })).toBeDefined();
    expect(daemon.requests.filter((r) => r.path === '/api/extensions').length).toBeGreaterThan(1);
  });

  it('repackages the platform from its card, with the Package texts', async () => {
    stubDaemon(({ url }) => (url.pathname === '/api/package-platform' ? daemonFailure() : undefined));
    renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Repackage Platform' }));

    expect(await notices().findByText(UI_TEXT.packageFailed)).toBeDefined();
  });
});

describe('rolling back an extension (docs/extensions.md)', () => {
  const kanban = (version: string, previousVersion: string | null) => ({
    name: 'kanban',
    displayName: 'Kanban board',
    route: '/ext/kanban',
    version,
    previousVersion,
  });

  it('offers "Roll back to <version>" only for an extension that kept a previous version', async () => {
    stubDaemon(({ url }) =>
      url.pathname === '/api/extensions'
        ? json([
            kanban('2.0.0', '1.0.0'),
            {
              name: 'notes',
              displayName: 'Notes',
              route: '/ext/notes',
              version: '1.0.0',
              previousVersion: null,
            },
            { name: 'clock', displayName: 'Clock', route: '/ext/clock' },
          ])
        : undefined,
    );
    renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );

    const button = await screen.findByRole('button', { name: 'Roll back Kanban board to 1.0.0' });
    expect(button.textContent).toBe('Roll back to 1.0.0');
    const list = screen.getByRole('list', { name: 'Installed extensions' });
    expect(within(list).getAllByRole('button', { name: /^Roll back/ })).toHaveLength(1);
    expect(within(list).getByRole('button', { name: 'Remove Notes' })).toBeDefined();
  });

  it('posts the rollback, shows pending, then says which version it left and refreshes the list', async () => {
    let installed = [kanban('2.0.0', '1.0.0')];
    let answer: (response: Response) => void = () => {};
    const answered = new Promise<Response>((resolve) => (answer = resolve));
    const daemon = stubDaemon(({ url, method }) => {
      if (method === 'POST' && url.pathname === '/api/extensions/kanban/rollback') return answered;
      return url.pathname === '/api/extensions' ? json(installed) : undefined;
    });
    const { queryClient } = renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );
    // The header's routes: the rollback may change what the extension's route serves.
    queryClient.setQueryData(routeQueryKey('dynamicRoutes'), []);

    fireEvent.click(await screen.findByRole('button', { name: 'Roll back Kanban board to 1.0.0' }));

    const pending = await screen.findByRole('button', { name: 'Rolling back Kanban board…' });
    expect(pending.hasAttribute('disabled')).toBe(true);
    expect(pending.textContent).toBe('Rolling back…');
    const listedBefore = daemon.requests.filter((r) => r.path === '/api/extensions').length;
    installed = [kanban('1.0.0', '2.0.0')];
    answer(json({ ok: true, extension: installed[0], rolledBackFrom: '2.0.0' }));

    expect((await screen.findByRole('status')).textContent).toContain(
      'Rolled back Kanban board from 2.0.0 to 1.0.0.',
    );
    // The refreshed list serves 1.0.0 and offers the way back to 2.0.0.
    expect(await screen.findByRole('button', { name: 'Roll back Kanban board to 2.0.0' })).toBeDefined();
    expect(screen.getByRole('list', { name: 'Installed extensions' }).textContent).toContain('v1.0.0');
    expect(daemon.requests.filter((r) => r.path === '/api/extensions').length).toBeGreaterThan(listedBefore);
    expect(daemon.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
      '/api/extensions/kanban/rollback',
    ]);
    expect(queryClient.getQueryState(routeQueryKey('dynamicRoutes'))?.isInvalidated).toBe(true);
  });

  it("shows the daemon's reason when a rollback is refused", async () => {
    stubDaemon(({ url, method }) => {
      if (method === 'POST' && url.pathname === '/api/extensions/kanban/rollback') {
        return json(
          {
            error: 'There is no previous version to roll back to.',
            code: 'NO_PREVIOUS_VERSION',
            hint: 'Forge keeps the version before the last upgrade.',
          },
          409,
        );
      }
      return url.pathname === '/api/extensions' ? json([kanban('2.0.0', '1.0.0')]) : undefined;
    });
    renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );

    fireEvent.click(await screen.findByRole('button', { name: 'Roll back Kanban board to 1.0.0' }));

    expect((await screen.findByRole('alert')).textContent).toContain(
      'There is no previous version to roll back to.',
    );
    expect(screen.queryByRole('status')).toBeNull();
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'Roll back Kanban board to 1.0.0' }).hasAttribute('disabled'),
      ).toBe(false),
    );
  });
});

describe('integrated apps (docs/extensions.md)', () => {
  const todo = (
    buildId: string,
    previousBuildId: string | null,
    url: string | null = 'http://127.0.0.1:4301/',
  ) => ({
    name: 'todo',
    path: '/apps/todo',
    url,
    buildId,
    previousBuildId,
    files: 3,
    integratedAt: '2026-11-02T10:00:00.000Z',
  });

  const renderManagerWithApps = () =>
    renderPanel(
      <MemoryRouter>
        <Routes>
          <Route path="/" element={<ExtensionManager />} />
          <Route path="/apps/todo" element={<p>todo route</p>} />
        </Routes>
      </MemoryRouter>,
    );

  it('lists each app with its route, the build it serves and Open on its own origin', async () => {
    const daemon = stubDaemon(({ url }) =>
      url.pathname === '/api/apps'
        ? json([
            todo('b2-aaaaaa', null),
            { ...todo('b5-cccccc', null, null), name: 'blog', path: '/apps/blog' },
          ])
        : undefined,
    );
    renderManagerWithApps();

    const list = await screen.findByRole('list', { name: 'Integrated apps' });
    expect(list.textContent).toContain('build b2-aaaaaa');
    expect(list.textContent).toContain('build b5-cccccc');
    const open = within(list).getByRole('link', { name: 'Open todo' });
    expect(open.getAttribute('href')).toBe('http://127.0.0.1:4301/');
    expect(open.getAttribute('target')).toBe('_blank');
    // Not served right now: no Open; no kept build: no rollback.
    expect(within(list).queryByRole('link', { name: 'Open blog' })).toBeNull();
    expect(within(list).queryByRole('button', { name: /^Roll back/ })).toBeNull();
    expect(daemon.requests.some((r) => r.method === 'GET' && r.path === '/api/apps')).toBe(true);

    const route = within(list).getByRole('link', { name: '/apps/todo' });
    expect(route.getAttribute('target')).toBeNull();
    fireEvent.click(route);
    expect(await screen.findByText('todo route')).toBeDefined();
  });

  it('shows a hint instead of a list while nothing is integrated', async () => {
    stubDaemon(({ url }) => (url.pathname === '/api/apps' ? json([]) : undefined));
    renderManagerWithApps();

    expect(
      await screen.findByText('No apps integrated yet — use Integrate in the Build Complete dialog.'),
    ).toBeDefined();
    expect(screen.queryByRole('list', { name: 'Integrated apps' })).toBeNull();
  });

  it('rolls an app back to its previous build, then refreshes the list', async () => {
    let apps = [todo('b3-bbbbbb', 'b2-aaaaaa')];
    let answer: (response: Response) => void = () => {};
    const answered = new Promise<Response>((resolve) => (answer = resolve));
    const daemon = stubDaemon(({ url, method }) => {
      if (method === 'POST' && url.pathname === '/api/apps/todo/rollback') return answered;
      return url.pathname === '/api/apps' ? json(apps) : undefined;
    });
    const { queryClient } = renderManagerWithApps();
    queryClient.setQueryData(routeQueryKey('dynamicRoutes'), []);

    const button = await screen.findByRole('button', { name: 'Roll back todo to build b2-aaaaaa' });
    expect(button.textContent).toBe('Roll back to build b2-aaaaaa');
    fireEvent.click(button);

    const pending = await screen.findByRole('button', { name: 'Rolling back todo…' });
    expect(pending.hasAttribute('disabled')).toBe(true);
    apps = [todo('b2-aaaaaa', 'b3-bbbbbb')];
    answer(json({ ok: true, app: apps[0], rolledBackFrom: 'b3-bbbbbb' }));

    expect((await screen.findByRole('status')).textContent).toContain(
      'Rolled back todo from build b3-bbbbbb to build b2-aaaaaa.',
    );
    expect(await screen.findByRole('button', { name: 'Roll back todo to build b3-bbbbbb' })).toBeDefined();
    expect(screen.getByRole('list', { name: 'Integrated apps' }).textContent).toContain('build b2-aaaaaa');
    expect(daemon.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
      '/api/apps/todo/rollback',
    ]);
    expect(queryClient.getQueryState(routeQueryKey('dynamicRoutes'))?.isInvalidated).toBe(true);
  });

  it("shows the daemon's reason when an app rollback is refused", async () => {
    stubDaemon(({ url, method }) => {
      if (method === 'POST' && url.pathname === '/api/apps/todo/rollback') {
        return json(
          { error: 'There is no integrated app with that name.', code: 'APP_NOT_FOUND', hint: '' },
          404,
        );
      }
      return url.pathname === '/api/apps' ? json([todo('b3-bbbbbb', 'b2-aaaaaa')]) : undefined;
    });
    renderManagerWithApps();

    fireEvent.click(await screen.findByRole('button', { name: 'Roll back todo to build b2-aaaaaa' }));

    expect((await screen.findByRole('alert')).textContent).toContain(
      'There is no integrated app with that name.',
    );
  });

  it("says why the app list is unavailable, in the daemon's words", async () => {
    stubDaemon(({ url }) => (url.pathname === '/api/apps' ? daemonFailure() : undefined));
    renderManagerWithApps();

    expect(await screen.findByText(`Integrated apps unavailable: ${DAEMON_FAILURE_TEXT}`)).toBeDefined();
  });
});
