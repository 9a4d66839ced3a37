import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Blueprint } from '@forge/shared';
import { registryFor } from '../toolchains/registry.ts';
import type { DecisionLog } from './decisions.ts';
import type { PackageInfo } from './package-json.ts';
import type { ProjectFiles } from './project-files.ts';
import { mirrorUrls } from '../toolchains/registry-mirror.ts';

/**
 * What a build machine gives a project besides its commands, decided from the files and this
 * machine (docs/pipeline.md "The build machine"): a git repository of the upload for builds that read
 * their history, the registry Forge reaches for a lockfile resolved against a mirror, and no browser
 * or test-runner binary downloads at install. Every choice goes into the plan with its evidence.
 */

type Plan = Omit<Blueprint, 'decisions'>;

/** Lockfiles are read whole to find their hosts (a large monorepo's runs to tens of MB). */
const MAX_LOCKFILE_BYTES = 64 * 1024 * 1024;

/** Test tools that download a binary at install, and their documented switch to skip it. */
const BINARY_DOWNLOADS: readonly {
  packages: readonly string[];
  env: Record<string, string>;
  what: string;
}[] = [
  { packages: ['cypress'], env: { CYPRESS_INSTALL_BINARY: '0' }, what: "Cypress's test runner" },
  {
    packages: [
      'playwright',
      '@playwright/test',
      'playwright-chromium',
      'playwright-firefox',
      'playwright-webkit',
    ],
    env: { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    what: "Playwright's browsers",
  },
  {
    packages: ['puppeteer'],
    // PUPPETEER_SKIP_CHROMIUM_DOWNLOAD is the name Puppeteer read before version 19.
    env: { PUPPETEER_SKIP_DOWNLOAD: 'true', PUPPETEER_SKIP_CHROMIUM_DOWNLOAD: 'true' },
    what: "Puppeteer's Chrome",
  },
  { packages: ['chromedriver'], env: { CHROMEDRIVER_SKIP_DOWNLOAD: 'true' }, what: 'ChromeDriver' },
];

const LOCKFILE_NAMES = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
];

let gitOnPath: boolean | undefined;

/** Whether `git` runs on this machine (asked once). */
export function gitAvailable(): boolean {
  if (gitOnPath === undefined) {
    try {
      execFileSync('git', ['--version'], { stdio: 'ignore', timeout: 10_000 });
      gitOnPath = true;
    } catch {
      gitOnPath = false;
    }
  }
  return gitOnPath;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A package named in a lockfile's text (npm's "node_modules/x", Yarn's and pnpm's "x@", bun's "x": [). */
function inLockfile(text: string, name: string): boolean {
  const n = escapeRegExp(name);
  return new RegExp(`node_modules/${n}"|(?:^|[\\s"'/])${n}@|^\\s+"?${n}"?:`, 'm').test(text);
}

export interface MachineOptions {
  /** Whether git is on this machine (default: asked). */
  git?: boolean;
  /** The registry Forge's installs reach (default: the daemon's npm settings). */
  registry?: string;
}

/**
 * Fill in the plan's build-machine fields and their decisions: `gitSnapshot`, `mirrorHosts` (with
 * npm's --replace-registry-host setting where it is enough), and the binary-download switches in
 * `env` (the project's own env wins). `pkgs` are the app's and the install folder's package.json.
 */
export async function planBuildMachine(
  files: ProjectFiles,
  plan: Plan,
  pkgs: readonly { dir: string; pkg: PackageInfo | null }[],
  log: DecisionLog,
  options: MachineOptions = {},
): Promise<void> {
  if (plan.kind !== 'static-build' && plan.kind !== 'server') return;
  const lockfile = plan.install ? await readLockfile(files, plan.installDir) : null;

  const git = options.git ?? gitAvailable();
  plan.gitSnapshot = git;
  log.add(
    'git',
    git ? 'snapshot' : 'none',
    null,
    git
      ? 'a ZIP carries no .git: the build gets a repository of the uploaded files (one commit by Forge, dated by the newest file) for scripts that read their history (git log, git rev-parse HEAD)'
      : 'git is not installed on this machine: a build that reads its history (git log, git rev-parse HEAD) fails',
  );

  if (lockfile) {
    const registry = options.registry ?? registryFor('forge-registry-probe');
    const found = mirrorUrls(lockfile.text, registry);
    if (found.hosts.length > 0) {
      plan.mirrorHosts = found.hosts;
      const npmFlag =
        plan.packageManager === 'npm' &&
        plan.install?.[0] === 'npm' &&
        found.hosts.length === 1 &&
        found.atRoot;
      if (npmFlag) plan.env = { npm_config_replace_registry_host: found.hosts[0]!, ...plan.env };
      const how = lockfile.file.endsWith('bun.lockb')
        ? 'bun.lockb is binary and cannot be rewritten: the install may fail'
        : npmFlag
          ? `npm's --replace-registry-host=${found.hosts[0]} (npm_config_replace_registry_host)`
          : `${lockfile.file} rewritten before the install (its resolved URLs only)`;
      log.add(
        'registry',
        `${found.hosts.join(', ')} → ${registry}`,
        lockfile.file,
        `${found.count} resolved URL${found.count === 1 ? '' : 's'} on ${found.hosts.join(', ')}, a registry this machine does not reach: installed from ${registry} instead, by ${how}`,
      );
    }
  }

  const added: Record<string, string> = {};
  for (const tool of BINARY_DOWNLOADS) {
    const hit = await whereDeclared(tool.packages, pkgs, lockfile);
    if (!hit) continue;
    const fresh = Object.entries(tool.env).filter(([name]) => plan.env[name] === undefined);
    if (fresh.length === 0) continue;
    Object.assign(added, Object.fromEntries(fresh));
    log.add(
      'binaryDownload',
      fresh.map(([name, value]) => `${name}=${value}`).join(' '),
      hit.file,
      `${hit.name} (${hit.field}) downloads ${tool.what} at install; building does not need it, so the download is skipped with its documented switch (tests that need it are skipped, saying so)`,
    );
  }
  if (Object.keys(added).length > 0) plan.env = { ...added, ...plan.env };
}

/** The install folder's lockfile (text lockfiles; bun.lockb only named), or null. */
async function readLockfile(
  files: ProjectFiles,
  installDir: string,
): Promise<{ file: string; text: string } | null> {
  for (const name of LOCKFILE_NAMES) {
    const file = path.posix.join(installDir, name);
    const read = await files.read(file, MAX_LOCKFILE_BYTES);
    if (read) return { file, text: read.text };
  }
  const binary = path.posix.join(installDir, 'bun.lockb');
  return (await files.isFile(binary)) ? { file: binary, text: '' } : null;
}

/** Where one of `names` is declared: a package.json field, else the lockfile (a dependency of a dependency). */
async function whereDeclared(
  names: readonly string[],
  pkgs: readonly { dir: string; pkg: PackageInfo | null }[],
  lockfile: { file: string; text: string } | null,
): Promise<{ name: string; file: string; field: string } | null> {
  for (const { dir, pkg } of pkgs) {
    for (const name of names) {
      const field = pkg?.depField(name);
      if (field) return { name, file: path.posix.join(dir, 'package.json'), field };
    }
  }
  if (lockfile?.text) {
    for (const name of names) {
      if (inLockfile(lockfile.text, name))
        return { name, file: lockfile.file, field: 'a dependency in the lockfile' };
    }
  }
  return null;
}
