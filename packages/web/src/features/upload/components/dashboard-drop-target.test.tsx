import { fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { installFakeXhr } from '@/test/fake-xhr.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { ExtensionManager } from '@/features/extensions/components/extension-manager.tsx';
import { UploadProvider } from '../upload-context.tsx';
import { DashboardDropTarget } from './dashboard-drop-target.tsx';

const files = (...list: File[]) => ({ dataTransfer: { files: list, types: ['Files'] } });

function setup() {
  const daemon = stubDaemon(() => undefined);
  const xhr = installFakeXhr();
  // The extension manager's links navigate (Open, and /login for the download), so it needs a router.
  renderPanel(
    <MemoryRouter>
      <UploadProvider>
        <DashboardDropTarget>
          <p>code view</p>
          <ExtensionManager />
        </DashboardDropTarget>
      </UploadProvider>
    </MemoryRouter>,
  );
  return { daemon, xhr };
}

describe('the whole dashboard accepts a dropped project ZIP', () => {
  it('uploads a ZIP dropped anywhere on it', () => {
    const { xhr } = setup();
    const target = screen.getByText('code view');

    fireEvent.dragEnter(target, files(new File(['PK'], 'app.zip')));
    fireEvent.drop(target, files(new File(['PK'], 'app.zip')));

    expect(xhr.requests.map((r) => r.url)).toEqual(['/api/upload']);
    expect(((xhr.last().body as FormData).get('file') as File).name).toBe('app.zip');
  });

  it('validates a dropped file like a chosen one', async () => {
    const { xhr } = setup();
    fireEvent.drop(screen.getByText('code view'), files(new File(['x'], 'photo.png')));

    const notices = within(screen.getByRole('region', { name: 'Notifications (F8)' }));
    expect(await notices.findByText('Invalid file type')).toBeDefined();
    expect(xhr.requests).toHaveLength(0);
  });

  it('leaves a ZIP dropped on the extension manager to the extension manager', () => {
    const { xhr, daemon } = setup();
    fireEvent.drop(
      screen.getByRole('group', { name: 'Extension upload' }),
      files(new File(['PK'], 'ext.zip')),
    );

    expect(xhr.requests).toHaveLength(0);
    return expect
      .poll(() => daemon.requests.filter((r) => r.method === 'POST').map((r) => r.path))
      .toEqual(['/api/upload-extension']);
  });
});
