import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeBlueprint } from '@forge/testing';
import { withYarnMutex } from './install.ts';

describe('Yarn 1 installs take the shared cache lock', () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-yarn-cache-'));
  const yarn1 = {
    tool: 'yarn',
    package: 'yarn',
    request: '1',
    version: null,
    source: 'lockfile',
    file: 'yarn.lock',
  } as const;

  it('adds --mutex on the cache folder for Yarn 1 only', () => {
    const install = ['yarn', 'install', '--frozen-lockfile', '--non-interactive', '--no-progress'];
    const bp = makeBlueprint({
      packageManager: 'yarn',
      install,
      toolchain: yarn1,
      env: { YARN_CACHE_FOLDER: path.join(cache, 'v6') },
    });
    expect(withYarnMutex(bp, '/unused')).toEqual([
      ...install,
      '--mutex',
      `file:${path.join(cache, 'v6', '.forge-install-mutex')}`,
    ]);
    expect(fs.statSync(path.join(cache, 'v6')).isDirectory()).toBe(true);
    const berry = makeBlueprint({
      packageManager: 'yarn',
      install: ['yarn', 'install', '--immutable'],
      toolchain: { ...yarn1, package: '@yarnpkg/cli-dist', request: '4' },
    });
    expect(withYarnMutex(berry, cache)).toEqual(['yarn', 'install', '--immutable']);
    const npm = makeBlueprint({ packageManager: 'npm', install: ['npm', 'ci'] });
    expect(withYarnMutex(npm, cache)).toEqual(['npm', 'ci']);
  });

  it("locks Forge's own Yarn cache, inside FORGE_HOME, when the project names none", () => {
    const install = ['yarn', 'install', '--frozen-lockfile'];
    const bp = makeBlueprint({ packageManager: 'yarn', install, toolchain: yarn1 });
    const caches = path.join(cache, 'forge-home', 'caches');
    expect(withYarnMutex(bp, caches)).toEqual([
      ...install,
      '--mutex',
      `file:${path.join(caches, 'yarn', '.forge-install-mutex')}`,
    ]);
  });
});
