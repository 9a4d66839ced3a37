import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { UI_TEXT } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { stubDaemon } from '@/test/render-panel.tsx';
import { generateCode } from '../templates.ts';
// Loaded up front: the route imports the screen lazily, and a cold transform under load can outlast
// a findBy timeout.
import './code-generator-page.tsx';

const notices = () => within(screen.getByRole('region', { name: 'Notifications (F8)' }));
const button = (name: string) => screen.getByRole('button', { name });
const disabled = (name: string) => button(name).hasAttribute('disabled');

async function open() {
  renderApp('/code-generator');
  await screen.findByRole('heading', { level: 1, name: 'Code Generator' });
}

describe('code generator screen', () => {
  it('enables Copy, Insert and Clear only while generated code is present', async () => {
    stubDaemon(() => undefined);
    await open();
    expect([disabled('Copy'), disabled('Insert'), disabled('Clear')]).toEqual([true, true, true]);

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'order item' } });
    fireEvent.click(button('Schema'));

    expect(screen.getByLabelText('Generated code').textContent).toBe(generateCode('schema', 'order item'));
    expect([disabled('Copy'), disabled('Insert'), disabled('Clear')]).toEqual([false, false, false]);

    fireEvent.click(button('Clear'));

    expect(screen.queryByLabelText('Generated code')).toBeNull();
    expect([disabled('Copy'), disabled('Insert'), disabled('Clear')]).toEqual([true, true, true]);
  });

  it('Insert creates generated-code-{timestamp}.js in the current project with the code', async () => {
    const { requests } = stubDaemon((req) => {
      if (req.method === 'GET' && req.url.pathname === '/api/projects') {
        return json([
          {
            name: 'shop',
            createdAt: '2025-01-01T00:00:00.000Z',
            updatedAt: '2025-01-01T00:00:00.000Z',
            lastBuild: null,
            hasArtifact: false,
          },
        ]);
      }
      if (req.method === 'POST' && req.url.pathname === '/api/files/create') {
        return json({ ok: true, path: (req.body as { path: string }).path });
      }
      return undefined;
    });
    await open();
    // The card names the project Insert writes into once the project list has loaded.
    await waitFor(() => expect(screen.getByText(/Insert adds it to/).textContent).toContain('shop'));
    fireEvent.click(button('API'));
    const before = Date.now();

    fireEvent.click(button('Insert'));

    const inserted = await notices().findByText(/^Inserted generated-code-\d+\.js$/);
    const post = requests.find((r) => r.method === 'POST')!;
    const body = post.body as { path: string; content: string; project: string };
    expect(post.path).toBe('/api/files/create');
    expect(body.content).toBe(generateCode('api', ''));
    expect(body.project).toBe('shop');
    const timestamp = Number(/^generated-code-(\d+)\.js$/.exec(body.path)?.[1]);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Date.now());
    expect(inserted.textContent).toBe(`Inserted ${body.path}`);
  });

  it('says "Insert failed" when the daemon refuses the file', async () => {
    stubDaemon((req) =>
      req.method === 'POST' && req.url.pathname === '/api/files/create'
        ? json({ error: 'There is no project with that name.', code: 'PROJECT_NOT_FOUND' }, 404)
        : undefined,
    );
    await open();
    fireEvent.click(button('Function'));
    fireEvent.click(button('Insert'));

    expect(await notices().findByText(UI_TEXT.insertFailed)).toBeDefined();
    expect(notices().getByText('There is no project with that name.')).toBeDefined();
    // The code stays, so the user can copy it instead.
    expect(screen.getByLabelText('Generated code')).toBeDefined();
  });

  it('says "Generation failed" when the name cannot make an identifier', async () => {
    stubDaemon(() => undefined);
    await open();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '2nd try' } });

    fireEvent.click(button('Component'));

    expect(await notices().findByText(UI_TEXT.generationFailed)).toBeDefined();
    expect(screen.queryByLabelText('Generated code')).toBeNull();
    expect(disabled('Insert')).toBe(true);
  });

  it('Copy puts the code on the clipboard', async () => {
    stubDaemon(() => undefined);
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await open();
    fireEvent.click(button('Component'));

    fireEvent.click(button('Copy'));

    await waitFor(() => expect(writeText).toHaveBeenCalledWith(generateCode('component', '')));
    expect(await notices().findByText('Copied to the clipboard')).toBeDefined();
  });
});
