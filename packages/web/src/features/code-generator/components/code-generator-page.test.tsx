import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { UI_TEXT, type GenerateResult } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { stubDaemon, type RouteRequest } from '@/test/render-panel.tsx';
import { fakeFiles, PROJECT } from '@/features/files/test/fake-files.ts';
import { insertedFileName } from './code-generator-page.tsx';
// Loaded up front: the route imports the screen lazily, and a cold transform under load can outlast
// a findBy timeout.
import './code-generator-page.tsx';

const notices = () => within(screen.getByRole('region', { name: 'Notifications (F8)' }));
const button = (name: string) => screen.getByRole('button', { name });
const disabled = (name: string) => button(name).hasAttribute('disabled');
const describeAs = (text: string) =>
  fireEvent.change(screen.getByLabelText('Description'), { target: { value: text } });

/** What the daemon's CodeGenBot answers for the UserCard example (JavaScript). */
const USER_CARD: GenerateResult = {
  code: 'export function UserCard({ name, age }) {\n  return <p>{name} {age}</p>;\n}\n',
  language: 'javascript',
  fileName: 'UserCard.jsx',
  source: 'template',
  name: 'UserCard',
  fields: [
    { name: 'name', type: 'string', optional: false },
    { name: 'age', type: 'number', optional: true },
  ],
  kind: 'implemented',
  reason: 'a component that shows each of its props',
};

/** POST /api/generate answered with `answer`; the requests are kept. */
function generateRoute(answer: (req: RouteRequest) => Response) {
  return (req: RouteRequest) =>
    req.method === 'POST' && req.url.pathname === '/api/generate' ? answer(req) : undefined;
}

async function open() {
  const app = renderApp('/code-generator');
  await screen.findByRole('heading', { level: 1, name: 'Code Generator' });
  return app;
}

describe('code generator screen', () => {
  it('asks CodeGenBot for the kind clicked, and shows the code, its file, its author and the fields read', async () => {
    const { requests } = stubDaemon(generateRoute(() => json(USER_CARD)));
    await open();
    // Nothing is sent for an empty description; Copy, Insert and Clear need code.
    expect(['Component', 'API', 'Function', 'Schema'].map(disabled)).toEqual([true, true, true, true]);
    expect([disabled('Copy'), disabled('Insert'), disabled('Clear')]).toEqual([true, true, true]);

    describeAs('a UserCard component with name: string, age?: number');
    fireEvent.click(button('Component'));

    expect((await screen.findByLabelText('Generated code')).textContent).toBe(USER_CARD.code);
    const post = requests.find((r) => r.url.pathname === '/api/generate')!;
    expect(post.body).toEqual({
      kind: 'component',
      description: 'a UserCard component with name: string, age?: number',
      language: 'javascript',
    });
    expect(screen.getByText('Component code')).toBeDefined();
    expect(screen.getByLabelText('File name').textContent).toBe('UserCard.jsx');
    expect(screen.getByLabelText('Written by').textContent).toBe('template');
    const fields = within(screen.getByRole('list', { name: 'Fields read' })).getAllByRole('listitem');
    expect(fields.map((f) => f.textContent)).toEqual(['name: string', 'age?: number']);
    expect([disabled('Copy'), disabled('Insert'), disabled('Clear')]).toEqual([false, false, false]);

    fireEvent.click(button('Clear'));

    expect(screen.queryByLabelText('Generated code')).toBeNull();
    expect([disabled('Copy'), disabled('Insert'), disabled('Clear')]).toEqual([true, true, true]);
  });

  it('asks for TypeScript when the switch is on, and says when a model wrote the code', async () => {
    const { requests } = stubDaemon(
      generateRoute((req) =>
        json({
          ...USER_CARD,
          language: 'typescript',
          fileName: 'todos.ts',
          source: 'model',
          name: 'todosRouter',
          fields: [],
          code: `// ${(req.body as { kind: string }).kind}\n`,
        }),
      ),
    );
    await open();
    describeAs('an api for todos');
    fireEvent.click(screen.getByRole('switch', { name: 'TypeScript' }));
    fireEvent.click(button('API'));

    expect((await screen.findByLabelText('Generated code')).textContent).toBe('// api\n');
    expect(requests.find((r) => r.url.pathname === '/api/generate')!.body).toMatchObject({
      kind: 'api',
      language: 'typescript',
    });
    expect(screen.getByLabelText('Written by').textContent).toBe('model');
    expect(screen.getByText(/No fields read from the description/)).toBeDefined();
  });

  it('says "Generation failed" with the daemon\'s reason', async () => {
    stubDaemon(
      generateRoute(() => json({ error: 'The request is not valid.', code: 'VALIDATION_FAILED' }, 400)),
    );
    await open();
    describeAs('a card');

    fireEvent.click(button('Schema'));

    expect(await notices().findByText(UI_TEXT.generationFailed)).toBeDefined();
    expect(notices().getByText('The request is not valid.')).toBeDefined();
    expect(screen.queryByLabelText('Generated code')).toBeNull();
    expect(disabled('Insert')).toBe(true);
  });

  it('Insert writes generated-code-{timestamp}.js into the current project and opens it in the editor', async () => {
    const disk = fakeFiles({ 'package.json': '{ "name": "forge" }\n' });
    const { requests } = stubDaemon((req) => generateRoute(() => json(USER_CARD))(req) ?? disk.handler(req));
    const app = await open();
    // The card names the project Insert writes into once the project list has loaded.
    await waitFor(() => expect(screen.getByText(/Insert adds it to/).textContent).toContain(PROJECT));
    describeAs('a UserCard component');
    fireEvent.click(button('Component'));
    await screen.findByLabelText('Generated code');
    const before = Date.now();

    fireEvent.click(button('Insert'));

    const inserted = await notices().findByText(/^Inserted generated-code-\d+\.js$/);
    const post = requests.find((r) => r.url.pathname === '/api/files/create')!;
    const body = post.body as { path: string; content: string; project: string };
    expect(body.content).toBe(USER_CARD.code);
    expect(body.project).toBe(PROJECT);
    const timestamp = Number(/^generated-code-(\d+)\.js$/.exec(body.path)?.[1]);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Date.now());
    expect(inserted.textContent).toBe(`Inserted ${body.path}`);
    expect(disk.files.get(body.path)).toBe(USER_CARD.code);

    // Opened: on the dashboard, in a tab of the code area.
    await waitFor(() => expect(app.pathname()).toBe('/'));
    expect(await screen.findByRole('tab', { name: new RegExp(`^${body.path}`) })).toBeDefined();
  });

  it('says "Insert failed" when the daemon refuses the file, and keeps the code', async () => {
    stubDaemon(
      (req) =>
        generateRoute(() => json(USER_CARD))(req) ??
        (req.method === 'POST' && req.url.pathname === '/api/files/create'
          ? json({ error: 'There is no project with that name.', code: 'PROJECT_NOT_FOUND' }, 404)
          : undefined),
    );
    const app = await open();
    describeAs('a UserCard component');
    fireEvent.click(button('Function'));
    await screen.findByLabelText('Generated code');
    fireEvent.click(button('Insert'));

    expect(await notices().findByText(UI_TEXT.insertFailed)).toBeDefined();
    expect(notices().getByText('There is no project with that name.')).toBeDefined();
    expect(screen.getByLabelText('Generated code')).toBeDefined();
    expect(app.pathname()).toBe('/code-generator');
  });

  it('Copy puts the code on the clipboard', async () => {
    stubDaemon(generateRoute(() => json(USER_CARD)));
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await open();
    describeAs('a UserCard component');
    fireEvent.click(button('Component'));
    await screen.findByLabelText('Generated code');

    fireEvent.click(button('Copy'));

    await waitFor(() => expect(writeText).toHaveBeenCalledWith(USER_CARD.code));
    expect(await notices().findByText('Copied to the clipboard')).toBeDefined();
  });

  it('names an inserted TypeScript file with its own extension', () => {
    expect(insertedFileName(USER_CARD, 42)).toBe('generated-code-42.js');
    expect(insertedFileName({ ...USER_CARD, language: 'typescript', fileName: 'UserCard.tsx' }, 42)).toBe(
      'generated-code-42.tsx',
    );
    expect(insertedFileName({ ...USER_CARD, language: 'typescript', fileName: 'todos.ts' }, 42)).toBe(
      'generated-code-42.ts',
    );
  });
});
