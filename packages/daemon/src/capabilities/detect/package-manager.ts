import { formatCommand } from '@forge/shared';
import type { PackageManager, Toolchain } from '@forge/shared';
import {
  bundledNpmVersion,
  DEFAULT_BUN_MAJOR,
  DEFAULT_PNPM_MAJOR,
  DEFAULT_YARN_BERRY_MAJOR,
  parsePackageManagerField,
  pnpmMajorForLockfile,
  storeInstallArgv,
  toolPackage,
  YARN_CLASSIC_MAJOR,
  yarnMajorForLockfile,
  type PackageManagerField,
} from '../toolchains/index.ts';
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

/** Yarn Berry's lockfile starts with a `__metadata:` block within its first lines; pnpm's with its version. */
const LOCK_HEAD_BYTES = 64 * 1024;
const YARNRC_YML = '.yarnrc.yml';

export interface PackageManagerPlan {
  pm: PackageManager;
  /** The lockfile of that package manager, if the project has one. */
  lockfile: string | null;
  /** Locked install command, or null when there is nothing to install. */
  install: Argv | null;
  /** The package manager to provision for the project's commands; null for the npm that ships with Node. */
  toolchain: Toolchain | null;
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

/** Classic or Berry, and the Berry lockfile's `__metadata.version` when there is one. */
interface YarnFlavour {
  berry: boolean;
  metadataVersion: number | null;
}

async function yarnFlavour(
  files: ProjectFiles,
  declaredMajor: number | null,
  lockfile: string | null,
  log: DecisionLog,
): Promise<YarnFlavour> {
  const head = lockfile ? await files.read(lockfile, LOCK_HEAD_BYTES) : null;
  const metadata = head ? /^__metadata:\s*\n\s+version:\s*(\d+)/m.exec(head.text) : null;
  const metadataVersion = metadata ? Number(metadata[1]) : null;
  if (declaredMajor !== null) {
    const berry = declaredMajor >= 2;
    log.add(
      'yarnVersion',
      berry ? 'berry' : 'classic',
      PACKAGE_JSON,
      `"packageManager" names Yarn ${declaredMajor}${berry ? ' (Berry, 2+)' : ' (classic, 1.x)'}`,
    );
    return { berry, metadataVersion };
  }
  if (await files.isFile(YARNRC_YML)) {
    log.add('yarnVersion', 'berry', YARNRC_YML, '.yarnrc.yml is Yarn Berry (2+) configuration');
    return { berry: true, metadataVersion };
  }
  if (head && lockfile) {
    if (/^__metadata:/m.test(head.text)) {
      log.add('yarnVersion', 'berry', lockfile, 'yarn.lock has a __metadata block (Yarn Berry format)');
      return { berry: true, metadataVersion };
    }
    log.add('yarnVersion', 'classic', lockfile, 'yarn.lock is in the Yarn 1 format (no __metadata block)');
    return { berry: false, metadataVersion: null };
  }
  log.add('yarnVersion', 'classic', null, 'no .yarnrc.yml or Berry lockfile: Yarn 1 by default');
  return { berry: false, metadataVersion: null };
}

/** package.json as parsed JSON (readPackageJson has already refused a broken one). */
async function readManifest(files: ProjectFiles): Promise<Record<string, unknown>> {
  const file = await files.read(PACKAGE_JSON);
  try {
    const data: unknown = file ? JSON.parse(file.text) : {};
    return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The `lockfileVersion` at the head of a pnpm-lock.yaml, e.g. "9.0" or "5.4". */
async function pnpmLockfileVersion(files: ProjectFiles, lockfile: string): Promise<string | null> {
  const head = await files.read(lockfile, LOCK_HEAD_BYTES);
  return (head && /^lockfileVersion:\s*['"]?([\d.]+)['"]?/m.exec(head.text)?.[1]) ?? null;
}

/** What `yarnPath` in .yarnrc.yml means for the provisioned Yarn, or '' without one. */
async function yarnPathNote(files: ProjectFiles): Promise<string> {
  const rc = await files.read(YARNRC_YML);
  const yarnPath = rc ? /^yarnPath:\s*["']?([^"'\n#]+?)["']?\s*$/m.exec(rc.text)?.[1] : undefined;
  if (!yarnPath) return '';
  const inside = !yarnPath.startsWith('/') && !yarnPath.split(/[\\/]/).includes('..');
  const present = inside && (await files.isFile(yarnPath));
  return present
    ? `; .yarnrc.yml sets yarnPath ${yarnPath}: the provisioned Yarn hands over to the project's own release`
    : `; .yarnrc.yml sets yarnPath ${yarnPath}, which is not in the upload, so Yarn will fail to start`;
}

const toolchainOf = (
  tool: PackageManager,
  major: number,
  request: string,
  source: Toolchain['source'],
  file: string | null,
): Toolchain => ({ tool, package: toolPackage(tool, major), request, version: null, source, file });

const toolText = (t: Toolchain): string =>
  `${t.tool} ${t.request}${t.package === t.tool ? '' : ` (npm package ${t.package})`}`;

/**
 * The package manager to provision: the exact version `packageManager` names, else the major the
 * lockfile was written by, else Forge's default for the tool; npm is Node's own unless
 * `packageManager` names another npm major. Records the `toolchain` decision.
 */
async function resolveToolchain(
  files: ProjectFiles,
  pm: PackageManager,
  field: PackageManagerField | null,
  lockfile: string | null,
  yarn: YarnFlavour,
  log: DecisionLog,
): Promise<Toolchain | null> {
  const add = (t: Toolchain, rule: string): Toolchain => {
    log.add('toolchain', `${t.tool}@${t.request}`, t.file, rule);
    return t;
  };
  const bundledNpm = bundledNpmVersion();

  if (field) {
    const named = field.exact ?? String(field.major);
    if (pm === 'npm' && bundledNpm && Number(bundledNpm.split('.')[0]) === field.major) {
      log.add(
        'toolchain',
        `npm@${bundledNpm}`,
        PACKAGE_JSON,
        `"packageManager" names npm ${named}; the npm that ships with Node is ${bundledNpm}, the same major`,
      );
      return null;
    }
    const t = toolchainOf(pm, field.major, named, 'packageManager', PACKAGE_JSON);
    let rule = field.exact
      ? `"packageManager" names ${pm} ${field.exact} exactly: ${toolText(t)}, fetched once into Forge's toolchains`
      : `"packageManager" names ${pm} ${field.major} without an exact version: the newest ${toolText(t)}`;
    if (pm === 'npm') rule += ` (the npm that ships with Node is ${bundledNpm ?? 'unknown'})`;
    if (pm === 'pnpm' && lockfile) {
      const version = await pnpmLockfileVersion(files, lockfile);
      const fromLock = version ? pnpmMajorForLockfile(version) : null;
      if (fromLock && fromLock.major !== field.major) {
        rule += `; ${lockfile} (${fromLock.why}) points to pnpm ${fromLock.major}, but "packageManager" wins`;
      }
    }
    if (pm === 'yarn' && field.major >= 2) rule += await yarnPathNote(files);
    return add(t, rule);
  }

  switch (pm) {
    case 'npm':
      log.add(
        'toolchain',
        bundledNpm ? `npm@${bundledNpm}` : 'npm',
        lockfile,
        `the npm that ships with Node${bundledNpm ? ` (${bundledNpm})` : ''}: nothing to fetch`,
      );
      return null;
    case 'pnpm': {
      const version = lockfile ? await pnpmLockfileVersion(files, lockfile) : null;
      const fromLock = version ? pnpmMajorForLockfile(version) : null;
      if (lockfile && fromLock) {
        const t = toolchainOf('pnpm', fromLock.major, String(fromLock.major), 'lockfile', lockfile);
        return add(t, `${lockfile}: ${fromLock.why}, so pnpm ${fromLock.major}`);
      }
      const t = toolchainOf('pnpm', DEFAULT_PNPM_MAJOR, String(DEFAULT_PNPM_MAJOR), 'default', lockfile);
      const why = version
        ? `lockfileVersion ${version} is not one Forge knows`
        : 'no lockfileVersion Forge can read';
      return add(
        t,
        `${lockfile ?? 'no pnpm-lock.yaml'}: ${why}; pnpm ${DEFAULT_PNPM_MAJOR}, Forge's default`,
      );
    }
    case 'yarn': {
      if (!yarn.berry) {
        const t = toolchainOf(
          'yarn',
          YARN_CLASSIC_MAJOR,
          String(YARN_CLASSIC_MAJOR),
          lockfile ? 'lockfile' : 'default',
          lockfile,
        );
        return add(t, `${lockfile ? 'yarn.lock is a Yarn 1 lockfile' : 'Yarn 1 by default'}: ${toolText(t)}`);
      }
      const note = await yarnPathNote(files);
      if (lockfile && yarn.metadataVersion !== null) {
        const pick = yarnMajorForLockfile(yarn.metadataVersion);
        const t = toolchainOf('yarn', pick.major, String(pick.major), 'lockfile', lockfile);
        return add(t, `${lockfile}: ${pick.why}, so ${toolText(t)}${note}`);
      }
      const evidence = (await files.isFile(YARNRC_YML)) ? YARNRC_YML : lockfile;
      const t = toolchainOf(
        'yarn',
        DEFAULT_YARN_BERRY_MAJOR,
        String(DEFAULT_YARN_BERRY_MAJOR),
        evidence ? 'lockfile' : 'default',
        evidence,
      );
      return add(
        t,
        `${evidence ?? 'Yarn Berry'} names no Yarn version: ${toolText(t)}, the current Berry${note}`,
      );
    }
    case 'bun': {
      const t = toolchainOf(
        'bun',
        DEFAULT_BUN_MAJOR,
        String(DEFAULT_BUN_MAJOR),
        lockfile ? 'lockfile' : 'default',
        lockfile,
      );
      return add(t, `${lockfile ?? 'no bun lockfile'}: bun ${DEFAULT_BUN_MAJOR}, the current major`);
    }
  }
}

/**
 * Why an npm project without a lockfile still installs with npm rather than from Forge's shared store:
 * npm features pnpm does not read. Null when the store can be used.
 */
function storeRefusal(pkg: PackageInfo, manifest: Record<string, unknown>, nx: boolean): string | null {
  if (pkg.workspaces) return 'npm workspaces ("workspaces" in package.json), which pnpm does not read';
  if (manifest.overrides !== undefined) return '"overrides" in package.json, which is npm\'s own';
  if (nx) return 'nx.json: Nx reads the external dependencies of its tasks from the lockfile npm writes';
  return null;
}

/**
 * The package manager, the one to provision and the locked install: the `packageManager` field first
 * (it is what Corepack would run), then the lockfile present, then npm — which, with no lockfile to be
 * faithful to, installs from Forge's shared store with pnpm.
 */
export async function detectPackageManager(
  files: ProjectFiles,
  pkg: PackageInfo,
  log: DecisionLog,
): Promise<PackageManagerPlan> {
  const present: { file: string; pm: PackageManager }[] = [];
  for (const candidate of LOCKFILES) if (await files.isFile(candidate.file)) present.push(candidate);

  let pm: PackageManager | null = null;
  let field: PackageManagerField | null = null;
  if (pkg.packageManager !== null) {
    field = parsePackageManagerField(pkg.packageManager);
    if (field) {
      pm = field.tool;
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
  const yarn: YarnFlavour =
    pm === 'yarn'
      ? await yarnFlavour(files, field?.major ?? null, lockfile, log)
      : { berry: false, metadataVersion: null };

  const nothingToInstall =
    pkg.installable === 0 && !pkg.workspaces && !(await files.isFile('pnpm-workspace.yaml'));
  const storeCandidate = pm === 'npm' && field === null && lockfile === null && !nothingToInstall;
  const manifest = storeCandidate ? await readManifest(files) : {};
  const refusal = storeCandidate ? storeRefusal(pkg, manifest, await files.isFile('nx.json')) : null;

  if (storeCandidate && refusal === null) {
    const scripts = (manifest.scripts ?? {}) as Record<string, unknown>;
    // A postinstall (patch-package and the like) edits node_modules: it gets copies, not the store's files.
    const patches = typeof scripts.postinstall === 'string' || pkg.depField('patch-package') !== null;
    const toolchain = toolchainOf('pnpm', DEFAULT_PNPM_MAJOR, String(DEFAULT_PNPM_MAJOR), 'default', null);
    log.add(
      'toolchain',
      `pnpm@${DEFAULT_PNPM_MAJOR}`,
      null,
      `no lockfile: pnpm ${DEFAULT_PNPM_MAJOR} installs from Forge's shared store (Forge's default pnpm, the newest that runs on Node ≥ 20.19)`,
    );
    const argv = storeInstallArgv({ copy: patches });
    log.add(
      'install',
      formatCommand(argv),
      PACKAGE_JSON,
      "no lockfile: installed from Forge's shared store with pnpm (hoisted node_modules, as npm lays them out); " +
        'scripts still run with npm' +
        (patches ? '; files are copied, not linked, because a postinstall script may edit them' : ''),
    );
    return { pm, lockfile, install: argv, toolchain };
  }

  const toolchain = await resolveToolchain(files, pm, field, lockfile, yarn, log);
  if (nothingToInstall) {
    log.add('install', 'none', PACKAGE_JSON, 'package.json declares no dependencies: nothing to install');
    return { pm, lockfile, install: null, toolchain };
  }
  const { argv, rule } = installCommand(pm, lockfile !== null, yarn.berry);
  log.add(
    'install',
    formatCommand(argv),
    lockfile ?? PACKAGE_JSON,
    refusal ? `${rule}; not from Forge's shared store: ${refusal}` : rule,
  );
  return { pm, lockfile, install: argv, toolchain };
}

/** The toolchain with its evidence file relative to the project, for an install that runs in `dir`. */
export function toolchainIn(toolchain: Toolchain | null, dir: string): Toolchain | null {
  if (!toolchain || dir === '.' || toolchain.file === null) return toolchain;
  return { ...toolchain, file: `${dir.replace(/\/+$/, '')}/${toolchain.file}` };
}

/**
 * After the project's forge config has had its say: a store install's pnpm is only needed while the
 * install is still the store install (a config that replaces or turns off the install needs none).
 */
export function settleToolchain(
  plan: { packageManager: PackageManager | null; install: Argv | null; toolchain: Toolchain | null },
  log: DecisionLog,
): void {
  const t = plan.toolchain;
  if (t?.source === 'default' && plan.packageManager === 'npm' && plan.install?.[0] !== 'pnpm') {
    plan.toolchain = null;
    log.add(
      'toolchain',
      'none',
      null,
      'the forge config replaces the install: the npm that ships with Node runs it',
    );
  }
}
