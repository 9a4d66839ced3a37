import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { GenerateBody, GenerateResult } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { stubDaemon } from '@/test/render-panel.tsx';
// Loaded up front: the route imports the screen lazily.
import './description-pad-page.tsx';

// The description pad hands a description to the code generator too, and shows its answer with the
// same honesty mark as the Code Generator page: implemented, or a skeleton and why.

async function generate(kind: string, result: GenerateResult) {
  const daemon = stubDaemon((req) =>
    req.method === 'POST' && req.url.pathname === '/api/generate' ? json(result) : undefined,
  );
  renderApp('/description-pad');
  await screen.findByRole('heading', { level: 1, name: 'Description Pad' });
  fireEvent.change(screen.getByLabelText('Description'), {
    target: { value: 'a drag and drop kanban board' },
  });
  fireEvent.change(screen.getByLabelText('Code kind'), { target: { value: kind } });
  fireEvent.click(screen.getByRole('button', { name: 'Generate code' }));
  const card = await screen.findByLabelText('Generated code reply');
  return { daemon, card };
}

const skeleton: GenerateResult = {
  code: '// Skeleton: no recipe of the catalogue fits.\nexport function KanbanBoard() {}\n',
  language: 'typescript',
  fileName: 'KanbanBoard.tsx',
  source: 'template',
  name: 'KanbanBoard',
  fields: [],
  kind: 'skeleton',
  reason: 'no recipe of the catalogue fits "a drag and drop kanban board"',
};

describe('description pad: generated code and its honesty mark', () => {
  it('sends the description with the chosen kind and marks a skeleton with its reason', async () => {
    const { daemon, card } = await generate('component', skeleton);
    const sent = daemon.requests.find((r) => r.url.pathname === '/api/generate');
    expect(sent?.body as GenerateBody).toEqual({
      kind: 'component',
      description: 'a drag and drop kanban board',
      language: 'typescript',
    });
    const mark = within(card).getByRole('note');
    expect(mark.dataset.honesty).toBe('skeleton');
    expect(mark.getAttribute('aria-label')).toBe(`Skeleton: ${skeleton.reason}`);
    expect(within(card).getByLabelText('Generated code').textContent).toBe(skeleton.code);
  });

  it('marks an implementation as implemented', async () => {
    const { card } = await generate('function', {
      ...skeleton,
      code: 'export function slugify(text: string): string { return text; }\n',
      fileName: 'slugify.ts',
      name: 'slugify',
      kind: 'implemented',
      reason: 'slugify: lower case, words joined by hyphens',
    });
    expect(within(card).getByRole('note').getAttribute('aria-label')).toBe(
      'Implemented: slugify: lower case, words joined by hyphens',
    );
  });
});
