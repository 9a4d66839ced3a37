import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DEFAULT_REGISTRY = 'https://registry.npmjs.org/';

type Env = Readonly<Record<string, string | undefined>>;

function fromNpmrc(file: string, keys: readonly string[]): string | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  for (const key of keys) {
    const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const match = new RegExp(`^\\s*${escaped}\\s*=\\s*(.+?)\\s*$`, 'm').exec(text);
    if (match) return match[1]!.replace(/^["']|["']$/g, '');
  }
  return null;
}

/**
 * The registry npm will fetch `pkg` from, for messages ("Could not fetch pnpm@10 from …"): the
 * environment, then the user's .npmrc (a scope's own registry first), else npm's default. npm itself
 * reads the same settings; this only names what it used.
 */
export function registryFor(pkg: string, env: Env = process.env): string {
  const scope = pkg.startsWith('@') ? pkg.split('/')[0]! : null;
  const keys = [...(scope ? [`${scope}:registry`] : []), 'registry'];
  const fromEnv = env.npm_config_registry ?? env.NPM_CONFIG_REGISTRY;
  if (fromEnv && !scope) return fromEnv;
  const home = env.HOME ?? os.homedir();
  const userconfig = env.npm_config_userconfig ?? env.NPM_CONFIG_USERCONFIG ?? path.join(home, '.npmrc');
  const scoped = scope ? fromNpmrc(userconfig, [`${scope}:registry`]) : null;
  return scoped ?? fromEnv ?? fromNpmrc(userconfig, keys) ?? DEFAULT_REGISTRY;
}
