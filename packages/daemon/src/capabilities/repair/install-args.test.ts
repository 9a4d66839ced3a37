import { describe, expect, it } from 'vitest';
import { storeInstallArgv } from '../toolchains/index.ts';
import { installArgs, installTool } from './install-args.ts';

/** The locked installs of capabilities/detect/package-manager.ts. */
const NPM_CI = ['npm', 'ci', '--no-audit', '--no-fund'];
const PNPM_FROZEN = ['pnpm', 'install', '--frozen-lockfile', '--reporter=append-only'];
const YARN1_FROZEN = ['yarn', 'install', '--frozen-lockfile', '--non-interactive', '--no-progress'];
const BERRY_IMMUTABLE = ['yarn', 'install', '--immutable'];
const BUN_FROZEN = ['bun', 'install', '--frozen-lockfile', '--no-progress'];

describe('installArgs', () => {
  it('npm: ci becomes install, keeping --no-audit --no-fund; legacy-peer adds --legacy-peer-deps once', () => {
    expect(installArgs('npm', 'unfrozen', NPM_CI)).toEqual(['npm', 'install', '--no-audit', '--no-fund']);
    expect(installArgs('npm', 'legacy-peer', NPM_CI)).toEqual([
      'npm',
      'install',
      '--no-audit',
      '--no-fund',
      '--legacy-peer-deps',
    ]);
    const unlocked = ['npm', 'install', '--no-audit', '--no-fund'];
    expect(installArgs('npm', 'unfrozen', unlocked)).toEqual(unlocked);
    expect(installArgs('npm', 'legacy-peer', installArgs('npm', 'legacy-peer', NPM_CI))).toEqual(
      installArgs('npm', 'legacy-peer', NPM_CI),
    );
  });

  it('pnpm: --frozen-lockfile becomes --no-frozen-lockfile; legacy-peer turns strict peers off', () => {
    expect(installArgs('pnpm', 'unfrozen', PNPM_FROZEN)).toEqual([
      'pnpm',
      'install',
      '--reporter=append-only',
      '--no-frozen-lockfile',
    ]);
    expect(installArgs('pnpm', 'legacy-peer', PNPM_FROZEN)).toEqual([
      'pnpm',
      'install',
      '--reporter=append-only',
      '--no-frozen-lockfile',
      '--config.strict-peer-dependencies=false',
    ]);
  });

  it("an npm project's store install (pnpm, no lockfile) gets no lockfile flag", () => {
    const store = storeInstallArgv({ copy: false });
    expect(installArgs('npm', 'unfrozen', store)).toEqual(store);
    expect(installArgs('npm', 'legacy-peer', store)).toEqual([
      ...store,
      '--config.strict-peer-dependencies=false',
    ]);
  });

  it('Yarn 1 loses --frozen-lockfile; Berry trades --immutable for --no-immutable; bun loses --frozen-lockfile', () => {
    expect(installArgs('yarn', 'unfrozen', YARN1_FROZEN)).toEqual([
      'yarn',
      'install',
      '--non-interactive',
      '--no-progress',
    ]);
    expect(installArgs('yarn', 'unfrozen', BERRY_IMMUTABLE)).toEqual(['yarn', 'install', '--no-immutable']);
    expect(installArgs('yarn', 'legacy-peer', BERRY_IMMUTABLE)).toEqual([
      'yarn',
      'install',
      '--no-immutable',
    ]);
    expect(installArgs('bun', 'unfrozen', BUN_FROZEN)).toEqual(['bun', 'install', '--no-progress']);
  });

  it("leaves a forge config's own install command alone", () => {
    expect(installArgs('npm', 'unfrozen', ['make', 'deps'])).toEqual(['make', 'deps']);
    expect(installTool(['make', 'deps'])).toBeNull();
    expect(installTool(['/opt/tools/pnpm', 'install'])).toBe('pnpm');
  });
});
