import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import type { Blueprint, Diagnosis } from '@forge/shared';
import { applyPlan, checkRepair, planRepair, restoreBackup, type RepairTarget } from './index.ts';
import { setMember } from './json-edit.ts';
import { blueprint, useTempDirs, writeTree } from '../../../test/support/repair-projects.ts';

/**
 * ALIGN_PACKAGE_VERSIONS: react-dom pinned to react's exact version in the package.json that asks for
 * them apart, nothing else of the file changed, the lockfile saved and the install unlocked; declined,
 * with why, whenever it would have to guess. Runs no command: the versions come from the diagnosis.
 */
const tempDir = useTempDirs();

const target = (projectDir: string, over: Partial<Blueprint> = {}): RepairTarget => ({
  projectDir,
  blueprint: blueprint(over),
  run: () => Promise.reject(new Error('ALIGN_PACKAGE_VERSIONS runs no command')),
});

const mismatch = (subjects = ['react@19.1.1', 'react-dom@19.1.0']): Diagnosis => ({
  code: 'MISMATCHED_PACKAGE_VERSIONS',
  summary: 'react 19.1.1 and react-dom 19.1.0 must be the exact same version',
  file: 'package.json',
  subjects,
  repair: 'ALIGN_PACKAGE_VERSIONS',
});

/** As the React Router template writes it, with the two pinned apart. */
const PACKAGE_JSON = `{
  "name": "shop",
  "private": true,
  "type": "module",
  "scripts": {
    "build": "react-router build",
    "start": "react-router-serve ./build/server/index.js"
  },
  "dependencies": {
    "@react-router/node": "7.18.4",
    "isbot": "^5.1.17",
    "react": "19.1.1",
    "react-dom": "19.1.0",
    "react-router": "7.18.4"
  },
  "devDependencies": {
    "@react-router/dev": "7.18.4",
    "vite": "^7.3.8"
  }
}
`;

describe('ALIGN_PACKAGE_VERSIONS', () => {
  it("pins react-dom to react's version, changing that one value, and reinstalls unlocked", async () => {
    const project = await tempDir();
    await writeTree(project, {
      'package.json': PACKAGE_JSON,
      'package-lock.json': '{ "lockfileVersion": 3 }\n',
    });
    const result = await planRepair(mismatch(), target(project));
    if (!result.plan) throw new Error(result.reason);
    const { plan } = result;
    expect(plan).toMatchObject({
      code: 'ALIGN_PACKAGE_VERSIONS',
      summary: 'RepairBot set react-dom to 19.1.1 in package.json (was "19.1.0"), the version of react',
      files: ['package.json', 'package-lock.json'],
      backup: ['package-lock.json'],
      install: 'unfrozen',
    });
    expect(plan.writes).toEqual([
      {
        file: 'package.json',
        content: PACKAGE_JSON.replace('"react-dom": "19.1.0"', '"react-dom": "19.1.1"'),
      },
    ]);
    expect(applyPatch(PACKAGE_JSON, plan.diff)).toBe(plan.writes[0]!.content);
    expect(plan.diff.split('\n').filter((l) => /^[-+]\s/.test(l))).toEqual([
      '-    "react-dom": "19.1.0",',
      '+    "react-dom": "19.1.1",',
    ]);

    // Applied within what a repair may touch, and undone byte for byte.
    const backupDir = path.join(await tempDir(), 'r1');
    await applyPlan(plan, project, backupDir);
    expect(await readFile(path.join(project, 'package.json'), 'utf8')).toContain('"react-dom": "19.1.1"');
    // Once aligned, forge fix has nothing left to change (and says so without running anything).
    expect(await checkRepair(mismatch(), { projectDir: project, blueprint: blueprint() })).toBe(
      'package.json already allows react-dom@19.1.1 ("19.1.1"): pinning it would change nothing (where they still differ, the lockfile holds them apart)',
    );
    await restoreBackup(backupDir, project);
    expect(await readFile(path.join(project, 'package.json'), 'utf8')).toBe(PACKAGE_JSON);
  });

  it('pins vue-template-compiler in devDependencies to vue', async () => {
    const project = await tempDir();
    await writeTree(project, {
      'package.json': JSON.stringify(
        {
          name: 'old-vue',
          dependencies: { vue: '2.7.16' },
          devDependencies: { 'vue-template-compiler': '~2.7.0' },
        },
        null,
        2,
      ),
    });
    // ~2.7.0 admits 2.7.16: package.json does not hold them apart.
    expect(
      (await planRepair(mismatch(['vue@2.7.16', 'vue-template-compiler@2.7.15']), target(project))).plan,
    ).toBeNull();
    await writeTree(project, {
      'package.json': JSON.stringify(
        {
          name: 'old-vue',
          dependencies: { vue: '2.7.16' },
          devDependencies: { 'vue-template-compiler': '2.7.15' },
        },
        null,
        2,
      ),
    });
    const result = await planRepair(
      mismatch(['vue@2.7.16', 'vue-template-compiler@2.7.15']),
      target(project),
    );
    expect(result.plan?.writes[0]?.content).toContain('"vue-template-compiler": "2.7.16"');
  });

  it.each([
    [
      ['lodash@4.17.21', 'react-dom@19.1.0'],
      'lodash and react-dom are not packages RepairBot knows to be released together',
    ],
    [
      ['react-dom@19.1.0', 'react@19.1.1'],
      'react-dom and react are not packages RepairBot knows to be released together',
    ],
    [['react@latest', 'react-dom@19.1.0'], 'the diagnosis names no two package versions to align'],
    [['react@19.1.1'], 'the diagnosis names no two package versions to align'],
  ])('declines %j: %s', async (subjects, reason) => {
    const project = await tempDir();
    await writeTree(project, { 'package.json': PACKAGE_JSON });
    expect(await planRepair(mismatch(subjects), target(project))).toEqual({ plan: null, reason });
  });

  it('declines when package.json does not declare the package it would follow', async () => {
    const project = await tempDir();
    await writeTree(project, {
      'package.json': JSON.stringify({ name: 'x', dependencies: { 'react-dom': '19.1.0' } }),
    });
    expect(await planRepair(mismatch(), target(project))).toEqual({
      plan: null,
      reason:
        'package.json does not declare react: pinning react-dom to its version would not keep them together',
    });
  });

  it("edits the workspace root's package.json when that is where the app's react-dom is declared", async () => {
    const project = await tempDir();
    await writeTree(project, {
      'package.json': JSON.stringify({
        name: 'root',
        private: true,
        dependencies: { react: '19.1.1', 'react-dom': '19.1.0' },
      }),
      'apps/web/package.json': JSON.stringify({ name: 'web', scripts: { build: 'vite build' } }),
    });
    const result = await planRepair(mismatch(), target(project, { appDir: 'apps/web' }));
    expect(result.plan?.files).toEqual(['package.json']);
    expect(result.plan?.writes[0]?.content).toContain('"react-dom":"19.1.1"');
  });
});

describe('setMember', () => {
  it('replaces one value and leaves every other byte', () => {
    const text =
      '{\r\n\t"dependencies": {\r\n\t\t"react": "19.1.1",\r\n\t\t"react-dom": "19.1.0"\r\n\t}\r\n}\r\n';
    expect(setMember(text, ['dependencies'], 'react-dom', '19.1.1')).toBe(text.replace('19.1.0', '19.1.1'));
  });

  it('refuses a key that is missing or written twice', () => {
    expect(() => setMember('{"a": {"b": 1}}', ['a'], 'c', 2)).toThrow('"c" is not there');
    expect(() => setMember('{"a": {"b": 1, "b": 2}}', ['a'], 'b', 3)).toThrow('"b" is there more than once');
  });
});
