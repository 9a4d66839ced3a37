import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { GenerateResult } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { stubDaemon } from '@/test/render-panel.tsx';
import './code-generator-page.tsx';

const answer = (over: Partial<GenerateResult>): GenerateResult => ({
  code: 'export function LoginForm() {}\n',
  language: 'typescript',
  fileName: 'LoginForm.tsx',
  source: 'template',
  name: 'LoginForm',
  fields: [],
  kind: 'implemented',
  reason: 'a form with a labelled input per field, validation messages and a submit button',
  ...over,
});

async function generate(result: GenerateResult) {
  stubDaemon((req) =>
    req.method === 'POST' && req.url.pathname === '/api/generate' ? json(result) : undefined,
  );
  renderApp('/code-generator');
  await screen.findByRole('heading', { level: 1, name: 'Code Generator' });
  fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'anything' } });
  fireEvent.click(screen.getByRole('button', { name: 'Component' }));
  await screen.findByLabelText('Generated code');
}

describe('the code generator says what the code is worth', () => {
  it('marks an implementation, with what it implements', async () => {
    await generate(answer({}));
    const mark = screen.getByRole('note', { name: /^Implemented: a form with a labelled input/ });
    expect(mark.getAttribute('data-honesty')).toBe('implemented');
    expect(mark.textContent).toContain('Implemented');
  });

  it('marks a skeleton, with the reason it is one', async () => {
    const reason = 'no recipe of the catalogue does what the description asks';
    await generate(answer({ kind: 'skeleton', reason, code: '// Skeleton: …\n' }));
    const mark = screen.getByRole('note', { name: `Skeleton: ${reason}` });
    expect(mark.getAttribute('data-honesty')).toBe('skeleton');
    expect(mark.textContent).toBe(`Skeleton${reason}`);
    expect(screen.queryByRole('note', { name: /^Implemented/ })).toBeNull();
  });
});
