import crypto from 'node:crypto';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Blueprint } from '@forge/shared';

/** Written into node_modules after a successful install; names what was installed. */
export const INSTALL_KEY_FILE = '.forge-install-key';

const LOCKFILES = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lockb',
  'bun.lock',
  '.yarnrc.yml',
  '.npmrc',
];

/**
 * What an install depends on: the package manager and command, Node's version, package.json and
 * the lockfiles. The same key means the same node_modules (DependencyBot reuses it).
 */
export async function installKey(projectDir: string, blueprint: Blueprint): Promise<string> {
  const hash = crypto.createHash('sha256');
  hash.update(
    JSON.stringify({ pm: blueprint.packageManager, install: blueprint.install, node: process.version }),
  );
  const names = ['package.json', ...LOCKFILES];
  const contents = await Promise.all(
    names.map((name) => readFile(path.join(projectDir, name)).catch(() => null)),
  );
  names.forEach((name, i) => {
    hash.update(`\n${name}\n`);
    hash.update(contents[i] ?? '(absent)');
  });
  return hash.digest('hex');
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
