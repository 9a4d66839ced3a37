import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnosis } from '@forge/shared';
import { settleBackgroundRemovals } from '../extract/index.ts';
import { applyPlan, planRepair } from './index.ts';
import { blueprint, runForReal, useTempDirs, writeTree } from '../../../test/support/repair-projects.ts';

/**
 * DROP_FOREIGN_NODE_MODULES removes the install's own node_modules and nothing else: a committed test
 * fixture under test/fixtures/**\/node_modules is source the project's tests read.
 */

const tempDir = useTempDirs();

const FOREIGN: Diagnosis = {
  code: 'FOREIGN_NODE_MODULES',
  summary: 'node_modules holds native code this machine cannot load.',
  subjects: [],
  repair: 'DROP_FOREIGN_NODE_MODULES',
};

const FIXTURES = {
  'test/fixtures/app/package.json': '{ "name": "fixture-app" }\n',
  'test/fixtures/app/node_modules/dep/package.json': '{ "name": "dep", "main": "index.js" }\n',
  'test/fixtures/app/node_modules/dep/index.js': 'module.exports = "fixture dep";\n',
  'packages/lib/test/fixtures/node_modules/other/index.js': 'module.exports = 2;\n',
};

describe('DROP_FOREIGN_NODE_MODULES and committed fixtures', () => {
  it.each([
    { label: 'a single app', appDir: '.', installDir: '.', installs: ['node_modules'] },
    {
      label: 'a workspace app',
      appDir: 'apps/web',
      installDir: '.',
      installs: ['node_modules', 'apps/web/node_modules'],
    },
  ])(
    'in $label, removes only the install folders and keeps every fixture',
    async ({ appDir, installDir, installs }) => {
      const project = await tempDir();
      await writeTree(project, {
        'package.json': '{ "name": "repo", "private": true }\n',
        'package-lock.json': '{ "lockfileVersion": 3 }\n',
        ...Object.fromEntries(installs.map((dir) => [`${dir}/native/addon.node`, 'not for this machine'])),
        ...FIXTURES,
      });
      const result = await planRepair(FOREIGN, {
        projectDir: project,
        blueprint: blueprint({ appDir, installDir }),
        run: runForReal,
      });
      if (!result.plan) throw new Error(result.reason);
      expect(result.plan.nodeModules).toEqual(installs);
      await applyPlan(result.plan, project, path.join(await tempDir(), 'backup'), {
        scope: { installDir, appDir },
      });
      await settleBackgroundRemovals();
      for (const dir of installs) expect(existsSync(path.join(project, dir)), dir).toBe(false);
      for (const [rel, content] of Object.entries(FIXTURES)) {
        expect(readFileSync(path.join(project, rel), 'utf8'), rel).toBe(content);
      }
      expect(readFileSync(path.join(project, 'package-lock.json'), 'utf8')).toContain('lockfileVersion');
    },
  );
});
