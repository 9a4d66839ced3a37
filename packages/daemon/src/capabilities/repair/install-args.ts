import path from 'node:path';
import type { PackageManager } from '@forge/shared';
import type { InstallMode } from './types.ts';

/**
 * The install a repair asks for, derived from the plan's own install argv (see
 * capabilities/detect/package-manager.ts for what Forge runs for each package manager): the locked
 * install made unlocked the way the same package manager's unlocked install is written there, plus
 * the legacy peer mode for npm and pnpm.
 */

const PACKAGE_MANAGERS: readonly string[] = ['npm', 'pnpm', 'yarn', 'bun'];

/**
 * The package manager that actually runs `argv` — not always the project's: an npm project without a
 * lockfile installs from Forge's shared store with pnpm — or null for a command of the project's own
 * (a forge config's install), which RepairBot does not rewrite.
 */
export function installTool(argv: readonly string[]): PackageManager | null {
  const program = argv[0] === undefined ? undefined : path.basename(argv[0]);
  return program !== undefined && PACKAGE_MANAGERS.includes(program) ? (program as PackageManager) : null;
}

/** Yarn Berry's install: `--immutable` or `--no-immutable` (Yarn 1 knows neither). */
export const isBerryInstall = (argv: readonly string[]): boolean =>
  argv.includes('--immutable') || argv.includes('--no-immutable');

const without = (argv: readonly string[], drop: (arg: string) => boolean): string[] =>
  argv.filter((arg) => !drop(arg));
const withFlag = (argv: string[], flag: string): string[] => (argv.includes(flag) ? argv : [...argv, flag]);

/**
 * The install argv for a repair: npm `ci` → `install` (+ `--legacy-peer-deps`), pnpm
 * `--frozen-lockfile` → `--no-frozen-lockfile` (+ `--config.strict-peer-dependencies=false`), Yarn 1
 * and bun without `--frozen-lockfile`, Yarn Berry `--immutable` → `--no-immutable` (Berry turns
 * immutable installs on under CI, as Forge's own unlocked Berry install says). Yarn and bun do not
 * fail on peer conflicts: legacy-peer only unlocks them. A command that is not a package manager's
 * (a forge config's own install) comes back unchanged. `packageManager` is the project's, for the
 * caller's record: the program of `argv` decides.
 */
export function installArgs(
  packageManager: PackageManager | null,
  mode: InstallMode,
  argv: readonly string[],
): string[] {
  // The program decides, not `packageManager`: see installTool.
  const tool = installTool(argv);
  const legacy = mode === 'legacy-peer';
  switch (tool) {
    case 'npm': {
      let next = argv.map((arg, i) => (i === 1 && arg === 'ci' ? 'install' : arg));
      if (next[1] === 'clean-install') next[1] = 'install';
      if (legacy)
        next = withFlag(
          without(next, (a) => a === '--strict-peer-deps'),
          '--legacy-peer-deps',
        );
      return next;
    }
    case 'pnpm': {
      let next = without(argv, (a) => a === '--frozen-lockfile' || a.startsWith('--frozen-lockfile='));
      // pnpm freezes the lockfile under CI=true by itself; a store install has no lockfile at all.
      if (!next.includes('--no-lockfile')) next = withFlag(next, '--no-frozen-lockfile');
      if (legacy) {
        next = withFlag(
          without(next, (a) => a.startsWith('--config.strict-peer-dependencies=')),
          '--config.strict-peer-dependencies=false',
        );
      }
      return next;
    }
    case 'yarn':
      if (isBerryInstall(argv)) {
        return withFlag(
          without(argv, (a) => a === '--immutable'),
          '--no-immutable',
        );
      }
      return without(argv, (a) => a === '--frozen-lockfile' || a === '--pure-lockfile');
    case 'bun':
      return without(argv, (a) => a === '--frozen-lockfile');
    default:
      return [...argv];
  }
}

/** Each package manager's lockfiles, the one it writes first. */
export const LOCKFILES: Readonly<Record<PackageManager, readonly string[]>> = {
  npm: ['package-lock.json', 'npm-shrinkwrap.json'],
  pnpm: ['pnpm-lock.yaml'],
  yarn: ['yarn.lock'],
  bun: ['bun.lock', 'bun.lockb'],
};

/** Whether an unlocked install with `argv` writes a lockfile (a store install does not). */
export const installWritesLockfile = (argv: readonly string[]): boolean =>
  !argv.includes('--no-lockfile') && !argv.includes('--no-package-lock');
