import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeBlueprint } from '@forge/testing';
import { withYarnNetworkTimeout, YARN_NETWORK_TIMEOUT_MS, yarnCacheLock } from './install.ts';

describe('Yarn 1 installs hold the shared cache lock', () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-yarn-cache-'));
  const yarn1 = {
    tool: 'yarn',
    package: 'yarn',
    request: '1',
    version: null,
    source: 'lockfile',
    file: 'yarn.lock',
  } as const;

  it("is the cache folder's lock, for Yarn 1 only", () => {
    const install = ['yarn', 'install', '--frozen-lockfile', '--non-interactive', '--no-progress'];
    const bp = makeBlueprint({
      packageManager: 'yarn',
      install,
      toolchain: yarn1,
      env: { YARN_CACHE_FOLDER: path.join(cache, 'v6') },
    });
    expect(yarnCacheLock(bp, '/unused')).toBe(path.join(cache, 'v6', '.forge-install-lock'));
    const berry = makeBlueprint({
      packageManager: 'yarn',
      install: ['yarn', 'install', '--immutable'],
      toolchain: { ...yarn1, package: '@yarnpkg/cli-dist', request: '4' },
    });
    expect(yarnCacheLock(berry, cache)).toBeNull();
    const npm = makeBlueprint({ packageManager: 'npm', install: ['npm', 'ci'] });
    expect(yarnCacheLock(npm, cache)).toBeNull();
  });

  it("locks Forge's own Yarn cache, inside FORGE_HOME, when the project names none", () => {
    const install = ['yarn', 'install', '--frozen-lockfile'];
    const bp = makeBlueprint({ packageManager: 'yarn', install, toolchain: yarn1 });
    const caches = path.join(cache, 'forge-home', 'caches');
    expect(yarnCacheLock(bp, caches)).toBe(path.join(caches, 'yarn', '.forge-install-lock'));
  });
});

describe("Yarn 1's network timeout", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-yarnrc-'));

  it("is Forge's longer one unless the project sets its own", () => {
    expect(withYarnNetworkTimeout({ A: '1' }, dir)).toEqual({
      A: '1',
      YARN_NETWORK_TIMEOUT: String(YARN_NETWORK_TIMEOUT_MS),
    });
    expect(withYarnNetworkTimeout({ YARN_NETWORK_TIMEOUT: '5000' }, dir)).toEqual({
      YARN_NETWORK_TIMEOUT: '5000',
    });
    fs.writeFileSync(
      path.join(dir, '.yarnrc'),
      'registry "https://registry.npmjs.org"\nnetwork-timeout 1000000\n',
    );
    expect(withYarnNetworkTimeout({}, dir)).toEqual({});
  });
});
