import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BuildOutput } from '@forge/shared';
import { FixItConsole } from '@/features/fixit/components/fixit-console.tsx';
import { json } from '@/test/fake-daemon.ts';
import { notImplemented, renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { BUILD_COMPLETE_TITLE, BuildCompleteDialog } from './build-complete-dialog.tsx';

const output: BuildOutput = {
  projectName: 'site',
  buildPath: '/home/me/.forge/outputs/site',
  files: ['index.html', 'assets/app.js'],
};

const openMenu = () => fireEvent.keyDown(screen.getByRole('button', { name: /ZIP/ }), { key: 'Enter' });

afterEach(() => vi.restoreAllMocks());

describe('Build-complete dialog (spec §2.7)', () => {
  it('opens on the window build_complete event with the build output', async () => {
    stubDaemon(() => undefined);
    renderPanel(<BuildCompleteDialog />);
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
    const { socket } = renderPanel(<BuildCompleteDialog />);
    socket.emit({ type: 'build_complete', buildOutput: output, projectName: 'site' });
    expect(await screen.findByText(BUILD_COMPLETE_TITLE)).toBeDefined();
  });

  it('integrate posts the build output; a 503 is logged and told calmly', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const daemon = stubDaemon(({ method, url }) =>
      method === 'POST' && url.pathname === '/api/integrate' ? notImplemented() : undefined,
    );
    renderPanel(
      <>
        <BuildCompleteDialog />
        <FixItConsole />
      </>,
    );
    act(() => {
      window.dispatchEvent(new CustomEvent('build_complete', { detail: output }));
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Integrate' }));

    expect(
      await screen.findByText(
        'Integration is not available in this Forge yet. Details are in the FixIt Console.',
      ),
    ).toBeDefined();
    expect(daemon.requests.find((r) => r.path === '/api/integrate')?.body).toEqual({
      projectName: 'site',
      buildPath: '/home/me/.forge/outputs/site',
      files: ['index.html', 'assets/app.js'],
    });
    expect(
      screen.getByText(
        'Integration of site failed: 503: Bot orchestration service unavailable. Set BOT_SERVICE_URL environment variable for production.',
      ),
    ).toBeDefined();
  });

  it('Save to File posts projectName and buildPath; a failure is only logged', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const daemon = stubDaemon(({ method, url }) =>
      method === 'POST' && url.pathname === '/api/save-project' ? notImplemented() : undefined,
    );
    renderPanel(<BuildCompleteDialog />);
    act(() => {
      window.dispatchEvent(new CustomEvent('build_complete', { detail: output }));
    });
    await screen.findByRole('dialog');
    openMenu();
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Save to File' }));

    expect(
      await screen.findByText(
        'Saving to a file is not available in this Forge yet. Details are in the FixIt Console.',
      ),
    ).toBeDefined();
    expect(daemon.requests.find((r) => r.path === '/api/save-project')?.body).toEqual({
      projectName: 'site',
      buildPath: '/home/me/.forge/outputs/site',
    });
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
    renderPanel(<BuildCompleteDialog />);
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

  it('says what the daemon answered when integrate works', async () => {
    stubDaemon(({ method, url }) =>
      method === 'POST' && url.pathname === '/api/integrate'
        ? json({ ok: true, text: 'Integrated into the platform.' })
        : undefined,
    );
    renderPanel(<BuildCompleteDialog />);
    act(() => {
      window.dispatchEvent(new CustomEvent('build_complete', { detail: output }));
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Integrate' }));
    expect(await screen.findByText('Integrated into the platform.')).toBeDefined();
  });
});
