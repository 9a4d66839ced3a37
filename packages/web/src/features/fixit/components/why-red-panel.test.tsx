import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Build, BuildDiff, Project } from '@forge/shared';
import { makeBuild } from '@forge/testing/fixtures';
import { json } from '@/test/fake-daemon.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { createEditorStore, EditorStoreProvider } from '@/features/editor/editor-store.tsx';
import { FixItConsole } from './fixit-console.tsx';

const project: Project = {
  name: 'shop',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastBuild: null,
  hasArtifact: false,
};

const failed: Build = makeBuild({
  id: 'b7-0a1b2c',
  projectName: 'shop',
  stages: [
    ['starting', 0],
    ['build-start', 1],
    ['build-failed', 2],
  ],
  error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
  diagnosis: {
    code: 'SYNTAX_ERROR',
    summary: 'Syntax error in src/main.js:4:1',
    file: 'src/main.js',
    line: 4,
  },
});

const MAIN_DIFF = [
  '--- a/src/main.js',
  '+++ b/src/main.js',
  '@@ -1,3 +1,4 @@',
  " import clsx from 'clsx'",
  '-document.title = clsx("a")',
  '+const title = clsx("a"',
  '+document.title = title',
  '',
].join('\n');

const diff: BuildDiff = {
  buildId: 'b7-0a1b2c',
  projectName: 'shop',
  greenBuildId: 'b5-99ffee',
  greenEndedAt: '2026-01-02T00:00:00.000Z',
  failure: {
    code: 'BUILD_FAILED',
    message: 'Syntax error',
    diagnosis: 'SYNTAX_ERROR',
    file: 'src/main.js',
    line: 4,
  },
  pointsAt: [
    {
      kind: 'file',
      name: 'src/main.js',
      reason: 'The error is in src/main.js:4 (Syntax error), and src/main.js was modified since b5-99ffee.',
    },
  ],
  summary: 'Points at: src/main.js — changed since b5-99ffee, the last green build.',
  files: {
    changes: [
      { path: 'src/main.js', status: 'modified', diff: MAIN_DIFF, linesMore: 0 },
      { path: 'package-lock.json', status: 'modified', noDiff: 'lockfile', linesMore: 0 },
    ],
    added: 0,
    removed: 0,
    modified: 2,
    more: 0,
  },
  dependencies: {
    lockfile: { from: 'package-lock.json', to: 'package-lock.json' },
    added: [{ name: 'tiny-lib', version: '1.0.0' }],
    removed: [],
    changed: [{ name: 'clsx', from: '2.0.0', to: '2.1.1', upgrade: true }],
    more: 0,
  },
  toolchain: [{ name: 'node', from: '20.20.0', to: '22.1.0' }],
  plan: [],
  env: { added: [], removed: ['API_URL'] },
};

/** The project's kept builds: one green build before the failed one, or none. */
const history = (kept: boolean) => ({
  projectName: 'shop',
  currentBuildId: kept ? 'b5-99ffee' : null,
  keep: 10,
  builds: kept
    ? [
        {
          buildId: 'b5-99ffee',
          createdAt: '2000-01-01T00:00:00.000Z',
          endedAt: '2000-01-01T00:01:00.000Z',
          sourceHash: null,
          sourceSha256: 'a'.repeat(64),
          artifactSha256: 'b'.repeat(64),
          bytes: 100,
          files: 1,
          verdict: null,
          current: true,
          lastGreen: true,
        },
      ]
    : [],
});

function renderFixIt(diffAnswer: () => Response, kept = true) {
  const daemon = stubDaemon(({ url }) => {
    if (url.pathname === '/api/projects/shop/history') return json(history(kept));
    if (url.pathname === '/api/projects') return json([project]);
    if (url.pathname === '/api/builds') return json([failed]);
    if (url.pathname === '/api/projects/shop/repairs') return json([]);
    if (url.pathname === `/api/builds/${failed.id}/diff`) return diffAnswer();
    return undefined;
  });
  renderPanel(
    <EditorStoreProvider store={createEditorStore()}>
      <FixItConsole />
    </EditorStoreProvider>,
  );
  return daemon;
}

const panel = () => screen.findByRole('region', { name: 'Why is it red now?' });

describe('FixIt: why is it red now?', () => {
  it('shows what the error points at first, then the files, dependencies, toolchain and environment names', async () => {
    renderFixIt(() => json(diff));
    const section = await panel();
    const summary = await within(section).findByTestId('why-red-summary');
    expect(summary.textContent).toBe(
      'Points at: src/main.js — changed since b5-99ffee, the last green build.',
    );
    expect(within(section).getByRole('list', { name: 'What the error points at' }).textContent).toContain(
      'src/main.js:4',
    );
    expect(section.textContent).toContain('Compared with b5-99ffee, the last green build.');

    const files = within(section).getByRole('list', { name: 'Changed files' });
    expect(files.textContent).toContain('modified src/main.js');
    expect(files.textContent).toContain('modified package-lock.json (lockfile: see dependencies)');
    // The file's unified diff opens under its name, added and removed lines told apart.
    fireEvent.click(within(files).getByText('modified src/main.js'));
    const view = within(section).getByRole('region', { name: 'Changes to src/main.js' });
    expect(view.querySelectorAll('[data-kind="add"]')).toHaveLength(2);
    expect(view.querySelectorAll('[data-kind="remove"]')).toHaveLength(1);

    const deps = within(section).getByRole('list', { name: 'Dependency changes' });
    expect([...deps.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'upgraded clsx 2.0.0 → 2.1.1',
      'added tiny-lib@1.0.0',
    ]);
    expect(section.textContent).toContain('node: 20.20.0 → 22.1.0');
    expect(section.textContent).toContain('Plan: unchanged.');
    expect(section.textContent).toContain('Environment names: removed API_URL');
  });

  it('says so without asking when the project has no green build before this one', async () => {
    const daemon = renderFixIt(() => json(diff), false);
    const section = await panel();
    await within(section).findByText(/^shop has no successful build before this one that Forge still keeps/);
    // Nothing to compare: no request the daemon would refuse.
    expect(daemon.requests.filter((r) => r.url.pathname.endsWith('/diff'))).toHaveLength(0);
  });

  it("shows a refusal in the daemon's words, asked once", async () => {
    const message = 'The source of build b7-0a1b2c was not kept: build it again to compare.';
    const daemon = renderFixIt(() => json({ error: message, code: 'NO_BUILD_SOURCE' }, 404));
    const section = await panel();
    expect((await within(section).findByText(message)).tagName).toBe('P');
    // A refusal is an answer: asked once, not retried.
    expect(daemon.requests.filter((r) => r.url.pathname.endsWith('/diff'))).toHaveLength(1);
  });
});
