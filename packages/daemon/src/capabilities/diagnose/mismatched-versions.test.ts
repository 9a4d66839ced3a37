import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Diagnosis, type StepName } from '@forge/shared';
import { makeBlueprint } from '@forge/testing';
import { makeTempDir } from '../../../test/support/temp-files.ts';
import { caseNamed, PROJECT_PLACEHOLDER } from './fixtures/cases.ts';
import { diagnose } from './index.ts';

/**
 * MISMATCHED_PACKAGE_VERSIONS from what React Router's build (react-dom checking react as it loads),
 * a plain server render and vue-template-compiler printed here (fixtures/capture.ts). The package.json
 * entries are read: the repair is offered only when package.json asks for the two apart.
 */
const FIXTURES = path.join(import.meta.dirname, 'fixtures');

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-diagnose-versions-'));
});
afterEach(() => cleanup());

async function diagnoseCase(
  name: string,
  { step = 'build', packageJson }: { step?: StepName; packageJson?: object } = {},
) {
  const files = {
    ...caseNamed(name).files,
    ...(packageJson ? { 'package.json': JSON.stringify(packageJson, null, 2) } : {}),
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  const text = await readFile(path.join(FIXTURES, `${name}.txt`), 'utf8');
  const lines = text.split(PROJECT_PLACEHOLDER).join(dir).replace(/\n$/, '').split('\n');
  const d = await diagnose({
    step,
    status: 'failed',
    error: {
      code: step === 'preview' ? 'PREVIEW_FAILED' : 'BUILD_FAILED',
      message: 'npm run build exited with code 1',
    },
    lines,
    blueprint: makeBlueprint(),
    projectDir: dir,
  });
  expect(Diagnosis.parse(d)).toEqual(d);
  return d;
}

describe('MISMATCHED_PACKAGE_VERSIONS', () => {
  it("React Router's build: package.json pins react 19.1.1 and react-dom 19.1.0", async () => {
    const d = await diagnoseCase('react-router-react-dom-mismatch');
    expect(d).toMatchObject({
      code: 'MISMATCHED_PACKAGE_VERSIONS',
      file: 'package.json',
      subjects: ['react@19.1.1', 'react-dom@19.1.0'],
      repair: 'ALIGN_PACKAGE_VERSIONS',
    });
    expect(d.summary).toBe(
      'react 19.1.1 and react-dom 19.1.0 must be the exact same version, and package.json asks for them apart ("react": "19.1.1", "react-dom": "19.1.0").',
    );
    expect(d.suggestion).toBe(
      'Set dependencies."react-dom" in package.json to "19.1.1", react\'s version, so both are 19.1.1, and update the lockfile. RepairBot can do it: turn on autoRepair or run forge fix.',
    );
  });

  it('a server render with react-dom pinned below the react that was installed', async () => {
    const d = await diagnoseCase('react-dom-mismatch-render', { step: 'preview' });
    expect(d).toMatchObject({
      code: 'MISMATCHED_PACKAGE_VERSIONS',
      subjects: ['react@19.1.1', 'react-dom@19.1.0'],
      repair: 'ALIGN_PACKAGE_VERSIONS',
    });
    expect(d.summary).toContain('("react": "^19.1.0", "react-dom": "19.1.0")');
  });

  it('ranges that allow the same version: the lockfile holds them apart, and no repair is offered', async () => {
    const d = await diagnoseCase('react-router-react-dom-mismatch', {
      packageJson: { name: 'shop', dependencies: { react: '^19.1.0', 'react-dom': '^19.1.0' } },
    });
    expect(d.code).toBe('MISMATCHED_PACKAGE_VERSIONS');
    expect(d.repair).toBeUndefined();
    expect(d.summary).toBe(
      'react 19.1.1 and react-dom 19.1.0 must be the exact same version. package.json allows the same version for both ("react": "^19.1.0", "react-dom": "^19.1.0"): the lockfile (or the installed node_modules) has them apart.',
    );
    expect(d.suggestion).toMatch(/^Install react-dom at 19\.1\.1 /);
  });

  it('vue and vue-template-compiler (devDependencies)', async () => {
    const d = await diagnoseCase('vue-template-compiler-mismatch');
    expect(d).toMatchObject({
      code: 'MISMATCHED_PACKAGE_VERSIONS',
      subjects: ['vue@2.7.16', 'vue-template-compiler@2.7.15'],
      repair: 'ALIGN_PACKAGE_VERSIONS',
    });
    expect(d.suggestion).toMatch(
      /^Set devDependencies\."vue-template-compiler" in package\.json to "2\.7\.16"/,
    );
  });

  it('without the check message, the same stack is not this', async () => {
    const d = await diagnose({
      step: 'build',
      status: 'failed',
      error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
      lines: ['  - react:      19.1.1', '  - react-dom:  19.1.0'],
      blueprint: makeBlueprint(),
      projectDir: dir,
    });
    expect(d.code).not.toBe('MISMATCHED_PACKAGE_VERSIONS');
  });
});
