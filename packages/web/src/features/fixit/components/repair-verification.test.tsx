import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Build, Project, Repair } from '@forge/shared';
import { makeBuild } from '@forge/testing/fixtures';
import { json } from '@/test/fake-daemon.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { createEditorStore, EditorStoreProvider } from '@/features/editor/editor-store.tsx';
import { FixItConsole } from './fixit-console.tsx';

// A proposal carries what its trial on a copy of the project showed: the FixIt console marks it
// "Verified" (the shared honesty mark) with the detail, or says plainly it was not verified.

const project: Project = {
  name: 'site',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastBuild: null,
  hasArtifact: false,
};

const proposal = (verification: Repair['verification']): Repair => ({
  id: 'b9:FIX_IMPORT_CASE',
  code: 'FIX_IMPORT_CASE',
  summary: "RepairBot would change './Lib.mjs' to './lib.mjs' in build.mjs",
  files: ['build.mjs'],
  status: 'proposed',
  diff: "--- a/build.mjs\n+++ b/build.mjs\n@@ -1 +1 @@\n-import './Lib.mjs';\n+import './lib.mjs';\n",
  at: '2026-01-02T03:04:06.000Z',
  buildId: 'b9',
  ...(verification ? { verification } : {}),
});

function renderWith(repair: Repair) {
  const build: Build = makeBuild({
    id: 'b9',
    projectName: 'site',
    stages: [
      ['starting', 0],
      ['build-start', 1],
      ['build-failed', 2],
    ],
    error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
    diagnosis: {
      code: 'IMPORT_CASE_MISMATCH',
      summary: "build.mjs imports './Lib.mjs', but the file is lib.mjs.",
      file: 'build.mjs',
      line: 1,
      repair: 'FIX_IMPORT_CASE',
    },
    repairs: [repair],
  });
  stubDaemon(({ method, url }) => {
    if (url.pathname === '/api/projects') return json([project]);
    if (method === 'GET' && url.pathname === '/api/builds') return json([build]);
    if (url.pathname === '/api/projects/site/repairs') return json([]);
    return undefined;
  });
  renderPanel(
    <EditorStoreProvider store={createEditorStore()}>
      <FixItConsole />
    </EditorStoreProvider>,
  );
}

const proposedItem = async () => {
  const proposed = await screen.findByRole('region', { name: 'Proposed repairs' });
  return within(proposed).getByRole('listitem', { name: /RepairBot would change/ });
};

describe('FixIt Console: a proposal’s verification', () => {
  it('marks a proposal that made the build pass on a copy as Verified, with the detail', async () => {
    renderWith(proposal({ status: 'passes', detail: 'verified: the build passes' }));
    const mark = within(await proposedItem()).getByRole('note', { name: 'Verified: the build passes' });
    expect(mark.getAttribute('data-honesty')).toBe('verified');
    // Said once, as the other honesty marks say theirs ("Skeleton: …"): the badge, then the reason.
    expect(mark.textContent).toBe('Verifiedthe build passes');
  });

  it('marks a partial one Verified with how many errors it fixes', async () => {
    const detail = 'verified: fixes 1 of 2 errors; the build then fails: a syntax error in page.mjs';
    renderWith(proposal({ status: 'partial', detail }));
    const mark = within(await proposedItem()).getByRole('note', {
      name: 'Verified: fixes 1 of 2 errors; the build then fails: a syntax error in page.mjs',
    });
    expect(mark.textContent).toBe(
      'Verifiedfixes 1 of 2 errors; the build then fails: a syntax error in page.mjs',
    );
  });

  it('says plainly when a proposal could not be tried, and shows no Verified mark', async () => {
    const detail = 'the preview step is not tried on a copy; the repair is proposed untried';
    renderWith(proposal({ status: 'not-run', detail }));
    const item = await proposedItem();
    expect(within(item).getByRole('note', { name: `Not verified: ${detail}` })).toBeDefined();
    expect(within(item).queryByRole('note', { name: /^Verified/ })).toBeNull();
  });

  it('an older record without a verification shows no mark', async () => {
    renderWith(proposal(undefined));
    expect(within(await proposedItem()).queryByRole('note')).toBeNull();
  });
});
