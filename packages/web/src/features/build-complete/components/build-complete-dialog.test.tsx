import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BuildOutput } from '@forge/shared';
import { FixItConsole } from '@/features/fixit/components/fixit-console.tsx';
import { json } from '@/test/fake-daemon.ts';
import { daemonFailure, renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { BUILD_COMPLETE_TITLE, BuildCompleteDialog } from './build-complete-dialog.tsx';

const output: BuildOutput = {
  projectName: 'site',
  buildPath: '/home/me/.forge/outputs/site',
  files: ['index.html', 'assets/app.js'],
};

/** The notices region (the modal dialog hides the rest of the page from assistive tech meanwhile). */
const notices = () => within(screen.getByRole('region', { name: 'Notifications (F8)', hidden: true }));

const openDialog = () =>
  act(() => {
    window.dispatchEvent(new CustomEvent('build_complete', { detail: output }));
  });

const openMenu = () => fireEvent.keyDown(screen.getByRole('button', { name: /ZIP/ }), { key: 'Enter' });

afterEach(() => vi.restoreAllMocks());

describe('Build-complete dialog (docs/product.md#dashboard-widgets)', () => {
  it('opens on the window build_complete event with the build output', async () => {
    stubDaemon(() => undefined);
    renderPanel(
      <MemoryRouter>
        <BuildCompleteDialog />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();

    act(() => {
      window.dispatchEvent(new CustomEvent('build_complete', { detail: output }));
    });

    const dialog = await screen.findByRole('dialog');
    expect(screen.getByText(BUILD_COMPLETE_TITLE)).toBeDefined();
    expect(dialog.textContent).toContain('site built 2 files.');
    expect(screen.getByRole('button', { name: 'Integrate' })).toBeDefined();
  });

  it('opens when the daemon reports build_complete on the socket', async () => {
    stubDaemon(() => undefined);
    const { socket } = renderPanel(
      <MemoryRouter>
        <BuildCompleteDialog />
      </MemoryRouter>,
    );
    socket.emit({ type: 'build_complete', buildOutput: output, projectName: 'site' });
    expect(await screen.findByText(BUILD_COMPLETE_TITLE)).toBeDefined();
  });

  it('integrate posts the build output; a refusal is logged and its reason shown in a notice', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const daemon = stubDaemon(({ method, url }) =>
      method === 'POST' && url.pathname === '/api/integrate'
        ? json({ error: 'site has no index.html to serve.', code: 'INTEGRATION_INVALID', hint: '' }, 422)
        : undefined,
    );
    renderPanel(
      <MemoryRouter>
        <BuildCompleteDialog />
        <FixItConsole />
      </MemoryRouter>,
    );
    openDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Integrate' }));

    // A notice (toasts are list items): title and the daemon's reason.
    expect((await screen.findByText('site has no index.html to serve.')).closest('li')).not.toBeNull();
    expect(screen.getByText('Integration of site failed').closest('li')).not.toBeNull();
    expect(
      screen.getByText('Integration did not go through. Details are in the FixIt Console.'),
    ).toBeDefined();
    expect(daemon.requests.find((r) => r.path === '/api/integrate')?.body).toEqual({
      projectName: 'site',
      buildPath: '/home/me/.forge/outputs/site',
      files: ['index.html', 'assets/app.js'],
    });
    expect(screen.getByText('Integration of site failed: site has no index.html to serve.')).toBeDefined();
    expect(console.warn).toHaveBeenCalled();
  });

  it('a route that is not built yet gets no special wording: the daemon says why', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubDaemon(({ method, url }) =>
      method === 'POST' && url.pathname === '/api/integrate' ? daemonFailure() : undefined,
    );
    renderPanel(
      <MemoryRouter>
        <BuildCompleteDialog />
      </MemoryRouter>,
    );
    openDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Integrate' }));

    expect(await notices().findByText('Something went wrong inside Forge.')).toBeDefined();
    expect(screen.queryByText(/not available in this Forge yet/)).toBeNull();
  });

  it('Save to File posts projectName and buildPath and says where the ZIP was written', async () => {
    const daemon = stubDaemon(({ method, url }) =>
      method === 'POST' && url.pathname === '/api/save-project'
        ? json({ ok: true, text: 'Saved site.zip.', file: '/home/me/.forge/saved/site.zip' })
        : undefined,
    );
    renderPanel(
      <MemoryRouter>
        <BuildCompleteDialog />
      </MemoryRouter>,
    );
    openDialog();
    await screen.findByRole('dialog');
    openMenu();
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Save to File' }));

    expect(await notices().findByText('/home/me/.forge/saved/site.zip')).toBeDefined();
    expect(notices().getByText('Saved site.zip.')).toBeDefined();
    expect(daemon.requests.find((r) => r.path === '/api/save-project')?.body).toEqual({
      projectName: 'site',
      buildPath: '/home/me/.forge/outputs/site',
    });
  });

  it("Save to File: a failure is logged and the daemon's reason shown", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubDaemon(({ method, url }) =>
      method === 'POST' && url.pathname === '/api/save-project'
        ? json({ error: 'The build output of site is gone.', code: 'NOT_FOUND', hint: '' }, 404)
        : undefined,
    );
    renderPanel(
      <MemoryRouter>
        <BuildCompleteDialog />
      </MemoryRouter>,
    );
    openDialog();
    await screen.findByRole('dialog');
    openMenu();
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Save to File' }));

    expect(await notices().findByText('The build output of site is gone.')).toBeDefined();
    expect(
      screen.getByText('Saving to a file did not go through. Details are in the FixIt Console.'),
    ).toBeDefined();
    expect(console.warn).toHaveBeenCalled();
  });

  it('Download saves the build output as {projectName}.zip', async () => {
    stubDaemon(({ method, url }) =>
      method === 'GET' && url.pathname === '/api/projects/site/artifact'
        ? new Response(new Uint8Array([0x50, 0x4b, 3, 4]), { headers: { 'content-type': 'application/zip' } })
        : undefined,
    );
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:forge/zip';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderPanel(
      <MemoryRouter>
        <BuildCompleteDialog />
      </MemoryRouter>,
    );
    act(() => {
      window.dispatchEvent(new CustomEvent('build_complete', { detail: output }));
    });
    await screen.findByRole('dialog');
    openMenu();
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Download' }));

    await waitFor(() => expect(saved).toEqual(['site.zip']));
    expect(new Uint8Array(await blobs[0]!.arrayBuffer())).toEqual(new Uint8Array([0x50, 0x4b, 3, 4]));
    expect(await screen.findByText('Downloading site.zip.')).toBeDefined();
  });

  it('says what the daemon answered when integrate works, and opens the app at its route', async () => {
    stubDaemon(({ method, url }) =>
      method === 'POST' && url.pathname === '/api/integrate'
        ? json({
            ok: true,
            text: 'Integrated into the platform.',
            path: '/apps/site',
            url: 'http://127.0.0.1:4321/',
          })
        : undefined,
    );
    let pathname = '';
    function Probe() {
      pathname = useLocation().pathname;
      return null;
    }
    renderPanel(
      <MemoryRouter>
        <BuildCompleteDialog />
        <Probe />
      </MemoryRouter>,
    );
    openDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Integrate' }));

    expect(await notices().findByText('Integrated into the platform.')).toBeDefined();
    expect(notices().getByText('/apps/site')).toBeDefined();
    fireEvent.click(notices().getByRole('button', { name: 'Open', hidden: true }));
    await waitFor(() => expect(pathname).toBe('/apps/site'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
