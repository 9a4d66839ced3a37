import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, type Project } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { installFakeXhr } from '@/test/fake-xhr.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { UploadProvider } from '../upload-context.tsx';
import { UploadPanel } from './upload-panel.tsx';

const notices = () => within(screen.getByRole('region', { name: 'Notifications (F8)' }));
const input = () => screen.getByLabelText('Project ZIP file') as HTMLInputElement;
const choose = (file: File) => fireEvent.change(input(), { target: { files: [file] } });

function zip(name: string, size?: number): File {
  const file = new File(['PK'], name, { type: 'application/zip' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}

const project = (name: string, built: boolean): Project => ({
  name,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastBuild: built
    ? {
        id: 'b1',
        status: 'succeeded',
        stage: 'integration-available',
        createdAt: '2026-01-01T00:00:00.000Z',
        cacheHit: false,
      }
    : null,
  hasArtifact: built,
});

function setup(projects: Project[] = []) {
  let list = projects;
  const daemon = stubDaemon(({ method, url }) =>
    method === 'GET' && url.pathname === '/api/projects' ? json(list) : undefined,
  );
  const xhr = installFakeXhr();
  const view = renderPanel(
    <UploadProvider>
      <UploadPanel />
    </UploadProvider>,
  );
  return { ...view, daemon, xhr, setProjects: (next: Project[]) => (list = next) };
}

describe('upload panel: validation before sending (docs/product.md#validation)', () => {
  it('refuses a file that is not a ZIP with "Invalid file type" / "Please upload a ZIP file"', async () => {
    const { xhr } = setup();
    choose(new File(['hello'], 'notes.txt', { type: 'text/plain' }));

    expect(await notices().findByText('Invalid file type')).toBeDefined();
    expect(notices().getByText('Please upload a ZIP file')).toBeDefined();
    const inPlace = screen.getByRole('alert');
    expect(inPlace.textContent).toBe('Invalid file typePlease upload a ZIP file');
    expect(xhr.requests).toHaveLength(0);
  });

  it('refuses a ZIP over 50MB with "File too large" / "Maximum file size is 50MB"', async () => {
    const { xhr } = setup();
    choose(zip('huge.zip', MAX_UPLOAD_BYTES + 1));

    expect(await notices().findByText('File too large')).toBeDefined();
    expect(notices().getByText('Maximum file size is 50MB')).toBeDefined();
    expect(xhr.requests).toHaveLength(0);
  });

  it('sends a ZIP of exactly 50MB, whatever the letter case of ".zip"', async () => {
    const { xhr } = setup();
    choose(zip('Edge.ZIP', MAX_UPLOAD_BYTES));
    await waitFor(() => expect(xhr.requests).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('upload panel: sending (docs/product.md#http-calls, docs/product.md#error-texts)', () => {
  it('posts the file to /api/upload with cookies, shows progress, then selects the new project', async () => {
    const { xhr, setProjects } = setup([project('Forge', false)]);
    expect(screen.getByRole('region', { name: 'Project upload' }).textContent).toContain(
      'Drop a project ZIP here or run forge upload app.zip',
    );

    choose(zip('my-app.zip'));
    const request = xhr.last();
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/upload');
    expect(request.withCredentials).toBe(true);
    expect((request.body as FormData).get('file')).toBeInstanceOf(File);

    request.progress(30, 100);
    await waitFor(() => expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('30'));
    expect(screen.getByText('Uploading… 30%')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Upload Project' }).hasAttribute('disabled')).toBe(true);

    setProjects([project('my-app', true), project('Forge', false)]);
    request.respond(200, {
      projectName: 'my-app',
      builderBots: ['BuildBot', 'UiBot'],
      buildResult: { success: true, hasPackageJson: true },
      buildId: 'b2',
    });

    expect(await notices().findByText('Uploaded my-app')).toBeDefined();
    expect(notices().getByText('Building with BuildBot, UiBot.')).toBeDefined();
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Project upload' }).textContent).toContain('replace my-app'),
    );
    expect(screen.getByRole('button', { name: 'Upload Project' }).hasAttribute('disabled')).toBe(false);
  });

  it('says when the build waits for its turn instead of starting', async () => {
    const { xhr } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Upload and Rapid Build' }));
    choose(zip('my-app.zip'));
    xhr.last().respond(200, {
      projectName: 'my-app',
      builderBots: [],
      buildResult: { success: true, hasPackageJson: true },
      buildId: 'b3',
      status: 'queued',
    });

    expect(await notices().findByText('Rapid build of my-app queued')).toBeDefined();
    expect(
      notices().getByText('Its build waits for its turn and starts as soon as a build slot is free.'),
    ).toBeDefined();
  });

  it('sends "Upload and Rapid Build" with ?rapid=1', async () => {
    const { xhr } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Upload and Rapid Build' }));
    choose(zip('app.zip'));

    expect(xhr.last().url).toBe('/api/upload?rapid=1');
  });

  it("shows the daemon's error field when it refuses the upload", async () => {
    const { xhr } = setup();
    choose(zip('broken.zip'));
    xhr.last().respond(422, {
      error: 'The archive is corrupt or not a ZIP file.',
      code: 'ARCHIVE_CORRUPT',
    });

    expect(await notices().findByText('The archive is corrupt or not a ZIP file.')).toBeDefined();
    expect((await screen.findByRole('alert')).textContent).toBe('The archive is corrupt or not a ZIP file.');
  });

  it('says "Upload failed" when the refusal carries no error field', async () => {
    const { xhr } = setup();
    choose(zip('app.zip'));
    xhr.last().respond(502, '<html>Bad Gateway</html>');

    expect(await notices().findByText('Upload failed')).toBeDefined();
  });

  it('says "Failed to upload project. Please try again." when the connection fails', async () => {
    const { xhr } = setup();
    choose(zip('app.zip'));
    xhr.last().fail();

    expect(await notices().findByText('Failed to upload project. Please try again.')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Upload Project' }).hasAttribute('disabled')).toBe(false);
  });

  it('can be cancelled while sending, without an error', async () => {
    const { xhr } = setup();
    choose(zip('app.zip'));
    xhr.last().progress(10, 100);

    fireEvent.click(await screen.findByRole('button', { name: 'Cancel upload' }));

    expect(xhr.last().aborted).toBe(true);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Upload Project' }).hasAttribute('disabled')).toBe(false),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
