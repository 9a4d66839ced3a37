import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnosis } from '@forge/shared';
import { checkRepair, planRepair } from './index.ts';
import {
  blueprint,
  runForReal,
  useTempDirs,
  useLocalRegistry,
  writeTree,
} from '../../../test/support/repair-projects.ts';
import type { RepairTarget } from './types.ts';

/**
 * A repair that would change nothing is never made (so no build runs again into the same failure),
 * and `forge fix` can tell before any build starts: checkRepair runs no command.
 */
const tempDir = useTempDirs();
const localRegistry = useLocalRegistry();

const diagnosis = (over: Partial<Diagnosis>): Diagnosis => ({
  code: 'UNKNOWN',
  summary: 'test',
  ...over,
});

const noCommands: RepairTarget['run'] = () => Promise.reject(new Error('no command may run here'));

describe('a repair that changes nothing', () => {
  it('REINSTALL_UNFROZEN when the install already runs unfrozen', async () => {
    const projectDir = await tempDir();
    await writeTree(projectDir, { 'package.json': '{"name":"a"}', 'package-lock.json': '{}' });
    const bp = blueprint({ install: ['npm', 'install', '--no-audit'] });
    const result = await planRepair(
      diagnosis({ code: 'LOCKFILE_OUT_OF_SYNC', repair: 'REINSTALL_UNFROZEN' }),
      {
        projectDir,
        blueprint: bp,
        run: noCommands,
      },
    );
    expect(result).toEqual({
      plan: null,
      reason: 'it would change nothing: the install already runs as the repair asks (npm install --no-audit)',
    });
    // The frozen install is changed: that repair is made.
    const frozen = await planRepair(
      diagnosis({ code: 'LOCKFILE_OUT_OF_SYNC', repair: 'REINSTALL_UNFROZEN' }),
      {
        projectDir,
        blueprint: blueprint({ install: ['npm', 'ci'] }),
        run: noCommands,
      },
    );
    expect(frozen.plan?.install).toBe('unfrozen');
  });

  it('a second unfrozen reinstall in the same build (the install mode already changed) is nothing', async () => {
    const projectDir = await tempDir();
    await writeTree(projectDir, {
      'package.json': '{"name":"a"}',
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
    });
    const result = await planRepair(diagnosis({ repair: 'REINSTALL_UNFROZEN' }), {
      projectDir,
      blueprint: blueprint({ packageManager: 'pnpm', install: ['pnpm', 'install', '--frozen-lockfile'] }),
      installMode: 'unfrozen',
      run: noCommands,
    });
    expect(result.plan).toBeNull();
    expect((result as { reason: string }).reason).toMatch(/pnpm install --no-frozen-lockfile/);
  });
});

describe('checkRepair: why forge fix would change nothing, without running a command', () => {
  it('USE_FRAMEWORK_BUILD when package.json has a build script after all', async () => {
    const projectDir = await tempDir();
    await writeTree(projectDir, {
      'package.json': JSON.stringify({ name: 'nx-shop', scripts: { build: 'nx build' } }),
    });
    const why = await checkRepair(diagnosis({ code: 'MISSING_SCRIPT', repair: 'USE_FRAMEWORK_BUILD' }), {
      projectDir,
      blueprint: blueprint({ framework: 'angular' }),
    });
    expect(why).toBe('package.json has a "build" script already');
  });

  it('ADD_MISSING_PACKAGES when the package was declared since', async () => {
    const projectDir = await tempDir();
    await writeTree(projectDir, {
      'package.json': JSON.stringify({ name: 'shop', dependencies: { 'canvas-confetti': '^1.9.3' } }),
    });
    const d = diagnosis({
      code: 'MISSING_PACKAGE',
      repair: 'ADD_MISSING_PACKAGES',
      subjects: ['canvas-confetti'],
    });
    expect(await checkRepair(d, { projectDir, blueprint: blueprint() })).toBe(
      'canvas-confetti (dependencies) is already declared in package.json: nothing to add',
    );
  });

  it('says nothing (the repair may be made) when only a command can tell, and runs none', async () => {
    const projectDir = await tempDir();
    await writeTree(projectDir, { 'package.json': JSON.stringify({ name: 'shop' }) });
    const registry = await localRegistry({ 'canvas-confetti': ['1.9.3'] });
    const d = diagnosis({
      code: 'MISSING_PACKAGE',
      repair: 'ADD_MISSING_PACKAGES',
      subjects: ['canvas-confetti'],
    });
    const bp = blueprint({ env: { npm_config_registry: registry.url } });
    expect(await checkRepair(d, { projectDir, blueprint: bp })).toBeNull();
    expect(registry.asked).toEqual([]);
    // Worked out for real, the same repair is made.
    const real = await planRepair(d, { projectDir, blueprint: bp, run: runForReal });
    expect(real.plan?.summary).toBe('RepairBot added canvas-confetti@^1.9.3 to package.json');
    expect(path.basename(real.plan!.files[0]!)).toBe('package.json');
  });
});
