import crypto from 'node:crypto';
import fs from 'node:fs';
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
export function installKey(projectDir: string, blueprint: Blueprint): string {
  const hash = crypto.createHash('sha256');
  hash.update(
    JSON.stringify({ pm: blueprint.packageManager, install: blueprint.install, node: process.version }),
  );
  for (const name of ['package.json', ...LOCKFILES]) {
    const file = path.join(projectDir, name);
    hash.update(`\n${name}\n`);
    try {
      hash.update(fs.readFileSync(file));
    } catch {
      hash.update('(absent)');
    }
  }
  return hash.digest('hex');
}

export const readInstallKey = (nodeModules: string): string | null => {
  try {
    return fs.readFileSync(path.join(nodeModules, INSTALL_KEY_FILE), 'utf8').trim();
  } catch {
    return null;
  }
};

export const writeInstallKey = (nodeModules: string, key: string): void => {
  fs.mkdirSync(nodeModules, { recursive: true });
  fs.writeFileSync(path.join(nodeModules, INSTALL_KEY_FILE), `${key}\n`);
};
