import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { UI_TEXT } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { notImplemented, renderPanel, stubDaemon, type RouteRequest } from '@/test/render-panel.tsx';
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

describe('Package (spec §2.2, §8)', () => {
  it('says "Build failed - family authentication required" when packaging is refused', async () => {
    stubDaemon(({ url }) => (url.pathname === '/api/package-platform' ? notImplemented() : undefined));
    renderPanel(<PackageButton />);

    fireEvent.click(screen.getByRole('button', { name: 'Package' }));

    expect(await notices().findByText(UI_TEXT.packageFailed)).toBeDefined();
  });

  it('shows the returned status, or "Build triggered" when it is empty', async () => {
    let status = 'Packaging started';
    const daemon = stubDaemon(({ url, method }) =>
      method === 'POST' && url.pathname === '/api/package-platform' ? json({ status }) : undefined,
    );
    renderPanel(<PackageButton />);

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

describe('extension manager (spec §2.7)', () => {
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
    stubDaemon(({ url }) => (url.pathname === '/api/extensions' ? notImplemented() : undefined));
    renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );

    expect(
      await screen.findByText(`Installed extensions unavailable: ${UI_TEXT.forgeUnavailable}`),
    ).toBeDefined();
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
      method === 'POST' && url.pathname === '/api/upload-extension' ? notImplemented() : undefined,
    );
    renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );

    fireEvent.drop(screen.getByRole('group', { name: 'Extension upload' }), {
      dataTransfer: { files: [new File(['PK'], 'kanban.zip')], types: ['Files'] },
    });

    expect((await screen.findByRole('alert')).textContent).toContain(UI_TEXT.forgeUnavailable);
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
    stubDaemon(({ url }) => (url.pathname === '/api/package-platform' ? notImplemented() : undefined));
    renderPanel(
      <MemoryRouter>
        <ExtensionManager />
      </MemoryRouter>,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Repackage Platform' }));

    expect(await notices().findByText(UI_TEXT.packageFailed)).toBeDefined();
  });
});
