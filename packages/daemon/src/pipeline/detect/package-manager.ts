import { formatCommand } from '@forge/shared';
import type { PackageManager } from '@forge/shared';
import { type Argv } from './command-line.ts';
import type { DecisionLog } from './decisions.ts';
import { PACKAGE_JSON, type PackageInfo } from './package-json.ts';
import type { ProjectFiles } from './project-files.ts';

/** Lockfiles in the order they decide the package manager when package.json names none. */
const LOCKFILES: readonly { file: string; pm: PackageManager }[] = [
  { file: 'pnpm-lock.yaml', pm: 'pnpm' },
  { file: 'bun.lockb', pm: 'bun' },
  { file: 'bun.lock', pm: 'bun' },
  { file: 'yarn.lock', pm: 'yarn' },
  { file: 'package-lock.json', pm: 'npm' },
  { file: 'npm-shrinkwrap.json', pm: 'npm' },
];

/** Yarn Berry's lockfile starts with a `__metadata:` block within its first lines. */
const YARN_LOCK_HEAD_BYTES = 64 * 1024;

/** `name@version` as Corepack writes it, optionally with a `+sha…` hash. */
const PACKAGE_MANAGER_FIELD = /^(npm|pnpm|yarn|bun)@(\d+)[^\s]*$/;

export interface PackageManagerPlan {
  pm: PackageManager;
  /** The lockfile of that package manager, if the project has one. */
  lockfile: string | null;
  /** Locked install command, or null when there is nothing to install. */
  install: Argv | null;
}

/** The lockfile-respecting, non-interactive install for each package manager. */
function installCommand(pm: PackageManager, locked: boolean, berry: boolean): { argv: Argv; rule: string } {
  switch (pm) {
    case 'npm':
      return locked
        ? {
            argv: ['npm', 'ci', '--no-audit', '--no-fund'],
            rule: 'npm ci installs exactly what the lockfile says',
          }
        : {
            argv: ['npm', 'install', '--no-audit', '--no-fund'],
            rule: 'no npm lockfile, and npm ci needs one: plain install',
          };
    case 'pnpm':
      return locked
        ? {
            argv: ['pnpm', 'install', '--frozen-lockfile', '--reporter=append-only'],
            rule: 'install exactly what pnpm-lock.yaml says',
          }
        : {
            // pnpm freezes the lockfile by default under CI=true and would refuse to create one.
            argv: ['pnpm', 'install', '--no-frozen-lockfile', '--reporter=append-only'],
            rule: 'no pnpm-lock.yaml, so the lockfile cannot be frozen',
          };
    case 'yarn':
      if (berry) {
        return locked
          ? {
              argv: ['yarn', 'install', '--immutable'],
              rule: 'Yarn Berry: install exactly what yarn.lock says',
            }
          : {
              // Berry turns on immutable installs under CI and would refuse to write a new lockfile.
              argv: ['yarn', 'install', '--no-immutable'],
              rule: 'Yarn Berry without yarn.lock: the lockfile cannot be immutable',
            };
      }
      return locked
        ? {
            argv: ['yarn', 'install', '--frozen-lockfile', '--non-interactive', '--no-progress'],
            rule: 'Yarn 1: install exactly what yarn.lock says',
          }
        : {
            argv: ['yarn', 'install', '--non-interactive', '--no-progress'],
            rule: 'Yarn 1 without yarn.lock: plain install',
          };
    case 'bun':
      return locked
        ? {
            argv: ['bun', 'install', '--frozen-lockfile', '--no-progress'],
            rule: 'install exactly what the bun lockfile says',
          }
        : { argv: ['bun', 'install', '--no-progress'], rule: 'no bun lockfile: plain install' };
  }
}

async function isYarnBerry(
  files: ProjectFiles,
  declaredMajor: number | null,
  lockfile: string | null,
  log: DecisionLog,
): Promise<boolean> {
  if (declaredMajor !== null) {
    const berry = declaredMajor >= 2;
    log.add(
      'yarnVersion',
      berry ? 'berry' : 'classic',
      PACKAGE_JSON,
      `"packageManager" names Yarn ${declaredMajor}${berry ? ' (Berry, 2+)' : ' (classic, 1.x)'}`,
    );
    return berry;
  }
  if (await files.isFile('.yarnrc.yml')) {
    log.add('yarnVersion', 'berry', '.yarnrc.yml', '.yarnrc.yml is Yarn Berry (2+) configuration');
    return true;
  }
  if (lockfile) {
    const head = await files.read(lockfile, YARN_LOCK_HEAD_BYTES);
    if (head && /^__metadata:/m.test(head.text)) {
      log.add('yarnVersion', 'berry', lockfile, 'yarn.lock has a __metadata block (Yarn Berry format)');
      return true;
    }
    log.add('yarnVersion', 'classic', lockfile, 'yarn.lock is in the Yarn 1 format (no __metadata block)');
    return false;
  }
  log.add('yarnVersion', 'classic', null, 'no .yarnrc.yml or Berry lockfile: Yarn 1 by default');
  return false;
}

/**
 * The package manager and its locked install: the `packageManager` field first (it is what Corepack
 * would run), then the lockfile present, then npm.
 */
export async function detectPackageManager(
  files: ProjectFiles,
  pkg: PackageInfo,
  log: DecisionLog,
): Promise<PackageManagerPlan> {
  const present: { file: string; pm: PackageManager }[] = [];
  for (const candidate of LOCKFILES) if (await files.isFile(candidate.file)) present.push(candidate);

  let pm: PackageManager | null = null;
  let declaredMajor: number | null = null;
  if (pkg.packageManager !== null) {
    const match = PACKAGE_MANAGER_FIELD.exec(pkg.packageManager.trim());
    if (match) {
      pm = match[1] as PackageManager;
      declaredMajor = Number(match[2]);
      log.add(
        'packageManager',
        pm,
        PACKAGE_JSON,
        `"packageManager": "${pkg.packageManager}" in package.json`,
      );
    } else {
      log.add(
        'packageManager',
        'ignored',
        PACKAGE_JSON,
        `"packageManager": "${pkg.packageManager}" is not npm, pnpm, yarn or bun as name@version; using the lockfiles`,
      );
    }
  }
  if (pm === null) {
    const first = present[0];
    if (first) {
      pm = first.pm;
      const others = present.filter((p) => p.pm !== first.pm).map((p) => p.file);
      log.add(
        'packageManager',
        pm,
        first.file,
        `${first.file} present` +
          (others.length > 0 ? ` (also found ${others.join(', ')}; ${first.file} comes first)` : ''),
      );
    } else {
      pm = 'npm';
      log.add('packageManager', 'npm', null, 'no "packageManager" field and no lockfile: npm by default');
    }
  }
  const lockfile = present.find((p) => p.pm === pm)?.file ?? null;
  const berry = pm === 'yarn' ? await isYarnBerry(files, declaredMajor, lockfile, log) : false;

  if (pkg.installable === 0 && !pkg.workspaces && !(await files.isFile('pnpm-workspace.yaml'))) {
    log.add('install', 'none', PACKAGE_JSON, 'package.json declares no dependencies: nothing to install');
    return { pm, lockfile, install: null };
  }
  const { argv, rule } = installCommand(pm, lockfile !== null, berry);
  log.add('install', formatCommand(argv), lockfile ?? PACKAGE_JSON, rule);
  return { pm, lockfile, install: argv };
}
