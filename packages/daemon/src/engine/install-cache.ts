import crypto from 'node:crypto';
import { access, readFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Blueprint } from '@forge/shared';

/** Written into node_modules after a successful install; names what was installed. */
export const INSTALL_KEY_FILE = '.forge-install-key';

/** Files besides package.json whose content changes what an install lays down. */
const INSTALL_INPUTS = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'yarn.lock',
  'bun.lockb',
  'bun.lock',
  '.yarnrc.yml',
  '.yarnrc',
  '.npmrc',
];

/**
 * What an install depends on: the package manager, its exact provisioned version and the command,
 * where it runs, the version of the Node it runs on, package.json and the lockfiles. The same key means the same
 * node_modules (DependencyBot reuses it). `blueprint.toolchain.version` is the version the toolchain
 * step provisioned (the request stands in for it before that).
 */
export async function installKey(projectDir: string, blueprint: Blueprint): Promise<string> {
  const hash = crypto.createHash('sha256');
  const { toolchain } = blueprint;
  hash.update(
    JSON.stringify({
      pm: blueprint.packageManager,
      install: blueprint.install,
      toolchain: toolchain ? `${toolchain.package}@${toolchain.version ?? toolchain.request}` : null,
      installDir: blueprint.installDir,
      // The Node DependencyBot provided for the build (its commands ran on it), else this machine's.
      node: blueprint.node?.resolved ? `v${blueprint.node.resolved.version}` : process.version,
    }),
  );
  const names = ['package.json', ...INSTALL_INPUTS];
  const contents = await Promise.all(
    names.map((name) => readFile(path.join(projectDir, name)).catch(() => null)),
  );
  names.forEach((name, i) => {
    hash.update(`\n${name}\n`);
    hash.update(contents[i] ?? '(absent)');
  });
  return hash.digest('hex');
}

/**
 * Whether the install lays down node_modules in more than one folder (npm/yarn/bun workspaces, a
 * pnpm workspace, an app inside a repository). Only the top node_modules is kept aside between
 * uploads, so a kept one is never whole for such an install and must not be reused.
 */
export async function isWorkspaceInstall(projectDir: string, blueprint: Blueprint): Promise<boolean> {
  if (
    blueprint.installDir !== '.' ||
    blueprint.appDir !== blueprint.installDir ||
    blueprint.apps.length > 0
  ) {
    return true;
  }
  if (
    await access(path.join(projectDir, 'pnpm-workspace.yaml')).then(
      () => true,
      () => false,
    )
  )
    return true;
  try {
    const manifest = JSON.parse(await readFile(path.join(projectDir, 'package.json'), 'utf8')) as {
      workspaces?: unknown;
    };
    return manifest.workspaces !== undefined;
  } catch {
    return false;
  }
}

export async function readInstallKey(nodeModules: string): Promise<string | null> {
  try {
    return (await readFile(path.join(nodeModules, INSTALL_KEY_FILE), 'utf8')).trim();
  } catch {
    return null;
  }
}

export async function writeInstallKey(nodeModules: string, key: string): Promise<void> {
  await mkdir(nodeModules, { recursive: true });
  await writeFile(path.join(nodeModules, INSTALL_KEY_FILE), `${key}\n`);
}
