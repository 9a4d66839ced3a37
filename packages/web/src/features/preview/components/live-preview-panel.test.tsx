// Previews are other origins that happy-dom would really fetch: frames "navigate" without loading
// (happy-dom then fires their load event, as a browser does once the page is in).
// @vitest-environment-options {"settings":{"navigation":{"disableChildFrameNavigation":true}}}
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '@/test/fake-daemon.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { LivePreviewPanel, PREVIEW_SANDBOX } from './live-preview-panel.tsx';

const project = {
  name: 'site',
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
  lastBuild: null,
  hasArtifact: true,
};

function daemon(urls: (string | null)[]) {
  let calls = 0;
  return stubDaemon(({ method, url }) => {
    if (method === 'GET' && url.pathname === '/api/projects') return json([project]);
    if (method === 'GET' && url.pathname === '/api/preview/url') {
      const answer = urls[Math.min(calls, urls.length - 1)] ?? null;
      calls += 1;
      return json({ url: answer });
    }
    return undefined;
  });
}

const frame = () => screen.queryByTitle('Preview of site') as HTMLIFrameElement | null;
const viewportBox = () => screen.getByTestId('preview-viewport');

describe('Live preview panel (docs/product.md#live-preview)', () => {
  it('shows "Live Preview Loading" while there is no preview address', async () => {
    const fake = daemon([null]);
    renderPanel(<LivePreviewPanel />);
    expect(screen.getByText('Live Preview Loading')).toBeDefined();
    await waitFor(() =>
      expect(fake.requests.some((r) => r.path === '/api/preview/url?project=site')).toBe(true),
    );
    expect(
      await screen.findByText('The preview of site appears here once a build of it has output.'),
    ).toBeDefined();
    expect(frame()).toBeNull();
    expect(screen.getByRole('button', { name: 'Open in new tab' }).hasAttribute('disabled')).toBe(true);
  });

  it('shows the project preview in a sandboxed frame, with an open-in-new-tab link', async () => {
    daemon(['http://127.0.0.1:41234']);
    renderPanel(<LivePreviewPanel />);
    await waitFor(() => expect(frame()).not.toBeNull());
    expect(frame()!.getAttribute('src')).toBe('http://127.0.0.1:41234');
    expect(frame()!.getAttribute('sandbox')).toBe(PREVIEW_SANDBOX);
    expect(screen.queryByText('Live Preview Loading')).toBeNull();
    expect(screen.getByText('http://127.0.0.1:41234')).toBeDefined();
    const open = screen.getByRole('link', { name: 'Open in new tab' });
    expect(open.getAttribute('href')).toBe('http://127.0.0.1:41234');
    expect(open.getAttribute('target')).toBe('_blank');
    expect(open.getAttribute('rel')).toContain('noopener');
  });

  it('says Connected once the preview has loaded', async () => {
    daemon(['http://127.0.0.1:41234']);
    renderPanel(<LivePreviewPanel />);
    const status = within(screen.getByRole('region', { name: 'Live preview' })).getByRole('status');
    expect(status.textContent).toBe('No preview');
    await waitFor(() => expect(status.textContent).toBe('Connected'));
    expect(frame()).not.toBeNull();
  });

  it('switches viewport widths: desktop by default, then mobile and tablet', async () => {
    daemon(['http://127.0.0.1:41234']);
    renderPanel(<LivePreviewPanel />);
    await waitFor(() => expect(frame()).not.toBeNull());
    const button = (name: string) =>
      within(screen.getByRole('group', { name: 'Viewport' })).getByRole('button', { name });

    expect(button('Desktop').getAttribute('aria-pressed')).toBe('true');
    expect(viewportBox().style.width).toBe('100%');
    fireEvent.click(button('Mobile'));
    expect(viewportBox().style.width).toBe('375px');
    expect(button('Mobile').getAttribute('aria-pressed')).toBe('true');
    expect(button('Desktop').getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(button('Tablet'));
    expect(viewportBox().style.width).toBe('768px');
  });

  it('asks for the address again when a build of the project finishes', async () => {
    daemon([null, 'http://127.0.0.1:5555']);
    const { socket } = renderPanel(<LivePreviewPanel />);
    expect(
      await screen.findByText('The preview of site appears here once a build of it has output.'),
    ).toBeDefined();

    socket.emit({
      type: 'build-finished',
      buildId: 'b1',
      projectName: 'other',
      status: 'succeeded',
      stage: 'integration-available',
    });
    socket.emit({
      type: 'build-finished',
      buildId: 'b2',
      projectName: 'site',
      status: 'succeeded',
      stage: 'integration-available',
    });

    await waitFor(() => expect(frame()?.getAttribute('src')).toBe('http://127.0.0.1:5555'));
    // Let happy-dom finish refusing to load the new frame before the file's console is restored.
  });

  it('shows the preview as soon as it is up, before the build (its tests) ends', async () => {
    daemon([null, 'http://127.0.0.1:5556']);
    const { socket } = renderPanel(<LivePreviewPanel />);
    expect(
      await screen.findByText('The preview of site appears here once a build of it has output.'),
    ).toBeDefined();

    socket.emit({
      type: 'preview-ready',
      buildId: 'b3',
      projectName: 'site',
      previewUrl: 'http://127.0.0.1:5556',
    });

    await waitFor(() => expect(frame()?.getAttribute('src')).toBe('http://127.0.0.1:5556'));
  });
});
