import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgeCaches, homeEnv } from './build-home.ts';
import { runCommand, type OutputLine } from './run-command.ts';
import { sandboxAvailable } from './sandbox.ts';
import { makeTempDir, nodeScript } from '../../../test/support/temp-files.ts';

const available = await sandboxAvailable();

describe('homeEnv', () => {
  it("gives the command its own HOME and XDG folders and pins every package manager's cache in FORGE_HOME/caches", () => {
    const env = homeEnv('/forge/homes/shop', '/forge/caches', {
      HOME: '/home/ana',
      XDG_CACHE_HOME: '/cache',
      npm_config_cache: '/home/ana/.npm',
      YARN_CACHE_FOLDER: '/home/ana/.cache/yarn',
    });
    expect(env).toMatchObject({
      HOME: '/forge/homes/shop',
      XDG_CONFIG_HOME: '/forge/homes/shop/.config',
      XDG_CACHE_HOME: '/forge/homes/shop/.cache',
      XDG_DATA_HOME: '/forge/homes/shop/.local/share',
      XDG_STATE_HOME: '/forge/homes/shop/.local/state',
      npm_config_userconfig: '/home/ana/.npmrc',
      // Forge's own, never the daemon user's (another program or Forge may write those meanwhile).
      npm_config_cache: '/forge/caches/npm',
      npm_config_cache_dir: '/forge/caches/pnpm',
      YARN_CACHE_FOLDER: '/forge/caches/yarn',
      YARN_GLOBAL_FOLDER: '/forge/caches/yarn-berry',
      BUN_INSTALL_CACHE_DIR: '/forge/caches/bun',
      COREPACK_HOME: '/forge/caches/corepack',
    });
    // Without FORGE_HOME's caches, the tools keep theirs in the command's own home.
    expect(homeEnv('/forge/homes/shop', undefined, { HOME: '/home/ana' })).not.toHaveProperty(
      'npm_config_cache',
    );
  });
});

describe.skipIf(!available)('a build with a writable home of its own, in the sandbox', () => {
  let dir: string;
  let home: string;
  const cleanups: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    const project = await makeTempDir('forge-home-project-');
    const forgeHome = await makeTempDir('forge-home-');
    dir = project.dir;
    home = join(forgeHome.dir, 'homes', 'shop');
    cleanups.push(project.cleanup, forgeHome.cleanup);
  });
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((fn) => fn()));
  });

  it("writes ~/.config and ~/.cache and FORGE_HOME's npm cache, and cannot write the daemon user's home", async () => {
    const realHome: string = process.env.HOME ?? homedir();
    const probe = `forge-home-probe-${process.pid}`;
    const caches = join(home, '..', '..', 'caches');
    const npmCache = forgeCaches(caches).npm_config_cache!;
    cleanups.push(() => rm(join(npmCache, probe), { force: true }));
    // A fresh machine's home may have no ~/.config yet: writing into a missing folder fails with
    // ENOENT whether or not the sandbox protects it, which would prove nothing.
    await mkdir(join(realHome, '.config'), { recursive: true });
    const argv = await nodeScript(
      dir,
      'build.cjs',
      `const fs = require('fs'), path = require('path'), os = require('os');
const home = os.homedir();
fs.mkdirSync(path.join(home, '.config', 'x'), { recursive: true });
fs.writeFileSync(path.join(home, '.config', 'x', 'y'), 'telemetry');
fs.mkdirSync(path.join(home, '.cache'), { recursive: true });
fs.writeFileSync(path.join(home, '.cache', 'z'), 'cache');
fs.writeFileSync(path.join(process.env.npm_config_cache, ${JSON.stringify(probe)}), 'shared');
for (const target of [path.join(${JSON.stringify(realHome)}, ${JSON.stringify(probe)}), path.join(${JSON.stringify(realHome)}, '.config', ${JSON.stringify(probe)})]) {
  try { fs.writeFileSync(target, 'x'); console.log('WROTE ' + target); } catch (e) { console.log('REFUSED ' + e.code); }
}
console.log('HOME=' + home);`,
    );
    const lines: OutputLine[] = [];
    const result = await runCommand({
      argv,
      cwd: dir,
      home,
      caches,
      timeoutMs: 30_000,
      sandbox: true,
      onLine: (line) => lines.push(line),
    });
    const out = lines.map((l) => l.text);
    expect(result.sandboxed).toBe(true);
    expect(result.outcome, out.join('\n')).toBe('succeeded');
    expect(out).toContain(`HOME=${home}`);
    expect(await readFile(join(home, '.config', 'x', 'y'), 'utf8')).toBe('telemetry');
    expect(await readFile(join(home, '.cache', 'z'), 'utf8')).toBe('cache');
    expect(await readFile(join(npmCache, probe), 'utf8')).toBe('shared');
    expect(out.filter((l) => l.startsWith('REFUSED'))).toEqual(['REFUSED EROFS', 'REFUSED EROFS']);
    expect(existsSync(join(realHome, probe))).toBe(false);
  });
});
