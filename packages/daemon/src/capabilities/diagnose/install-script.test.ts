import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Diagnosis } from '@forge/shared';
import { makeBlueprint } from '@forge/testing';
import { makeTempDir } from '../../../test/support/temp-files.ts';
import { readSkippedScripts, writeSkippedScripts } from '../exec/skipped-scripts.ts';
import { caseNamed, NPM_SKIPPED_LINES, PROJECT_PLACEHOLDER } from './fixtures/cases.ts';
import { diagnose } from './index.ts';

/**
 * INSTALL_SCRIPT_SKIPPED from a real Prisma server installed by npm 11.19, which skips dependencies'
 * install scripts not approved in allowScripts: @prisma/client's postinstall never generated the
 * client, and the server stops with "did not initialize yet".
 */
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-diagnose-scripts-'));
  for (const [file, text] of Object.entries(caseNamed('prisma-client-not-generated').files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  await mkdir(path.join(dir, 'node_modules'));
});
afterEach(() => cleanup());

async function run() {
  const text = await readFile(
    path.join(import.meta.dirname, 'fixtures', 'prisma-client-not-generated.txt'),
    'utf8',
  );
  const d = await diagnose({
    step: 'preview',
    status: 'failed',
    error: { code: 'PREVIEW_FAILED', message: 'The app exited with code 1 before it listened on a port' },
    lines: text.split(PROJECT_PLACEHOLDER).join(dir).replace(/\n$/, '').split('\n'),
    blueprint: makeBlueprint(),
    projectDir: dir,
  });
  expect(Diagnosis.parse(d)).toEqual(d);
  return d;
}

describe('INSTALL_SCRIPT_SKIPPED', () => {
  it('names the skipped postinstall of @prisma/client and how to approve it', async () => {
    writeSkippedScripts(path.join(dir, 'node_modules'), readSkippedScripts(NPM_SKIPPED_LINES));
    const d = await run();
    expect(d).toMatchObject({
      code: 'INSTALL_SCRIPT_SKIPPED',
      file: 'package.json',
      subjects: ['@prisma/client', '4.16.2', 'postinstall: node scripts/postinstall.js'],
    });
    expect(d.summary).toMatch(
      /^npm did not run the install script of @prisma\/client@4\.16\.2 \(postinstall: node scripts\/postinstall\.js\), and the preview failed/,
    );
    expect(d.suggestion).toContain('npm install-scripts approve @prisma/client');
    expect(d.suggestion).toContain('"allowScripts": { "@prisma/client@4.16.2": true }');
  });

  it('is not claimed when the install skipped no script of the failing package', async () => {
    writeSkippedScripts(
      path.join(dir, 'node_modules'),
      readSkippedScripts(NPM_SKIPPED_LINES).filter((s) => !s.name.includes('prisma')),
    );
    expect((await run()).code).not.toBe('INSTALL_SCRIPT_SKIPPED');
  });
});
