import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_HOST, DEFAULT_PORT } from '@forge/shared';
import { ConfigError, loadConfig, toConfigView } from './load-config.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-config-'));
  dirs.push(dir);
  return dir;
};

/** Load with a fake home so no real config of the machine leaks in. */
const load = (cwd: string, env: Record<string, string> = {}, overrides = {}) =>
  loadConfig({
    cwd,
    env: { FORGE_HOME: path.join(cwd, 'home'), ...env },
    homedir: cwd,
    platform: 'linux',
    overrides,
  });

describe('loadConfig', () => {
  it('uses the defaults without a config file', async () => {
    const cwd = tempDir();
    const config = await load(cwd);
    expect(config).toMatchObject({
      host: DEFAULT_HOST,
      port: DEFAULT_PORT,
      allowedHosts: [],
      accessToken: null,
      logLevel: 'info',
      webRoot: null,
      configFile: null,
      home: path.join(cwd, 'home'),
    });
  });

  it('reads the nearest forge config up from cwd, with env and flags on top', async () => {
    const root = tempDir();
    const cwd = path.join(root, 'a', 'b');
    fs.mkdirSync(cwd, { recursive: true });
    fs.writeFileSync(
      path.join(root, 'a', '.forgerc.json'),
      JSON.stringify({
        port: 5000,
        host: 'localhost',
        allowedHosts: ['forge.lan'],
        logLevel: 'debug',
        webRoot: 'web',
      }),
    );
    const fromFile = await loadConfig({ cwd, env: {}, homedir: root, platform: 'linux' });
    expect(fromFile).toMatchObject({
      port: 5000,
      host: 'localhost',
      allowedHosts: ['forge.lan'],
      logLevel: 'debug',
      webRoot: path.join(root, 'a', 'web'),
      configFile: path.join(root, 'a', '.forgerc.json'),
    });
    const fromEnv = await loadConfig({
      cwd,
      env: { FORGE_PORT: '6000', FORGE_HOST: '127.0.0.2', FORGE_TOKEN: 'tok' },
      homedir: root,
      platform: 'linux',
    });
    expect(fromEnv).toMatchObject({ port: 6000, host: '127.0.0.2', accessToken: 'tok' });
    const fromFlags = await loadConfig({
      cwd,
      env: { FORGE_PORT: '6000' },
      homedir: root,
      platform: 'linux',
      overrides: { port: 0 },
    });
    expect(fromFlags.port).toBe(0);
  });

  it('reads "forge" in package.json', async () => {
    const cwd = tempDir();
    fs.writeFileSync(path.join(cwd, 'package.json'), JSON.stringify({ name: 'x', forge: { port: 4444 } }));
    expect((await load(cwd)).port).toBe(4444);
  });

  it('names the file and the field of a bad config', async () => {
    const cwd = tempDir();
    const file = path.join(cwd, '.forgerc.json');
    fs.writeFileSync(file, JSON.stringify({ port: 'abc', allowedHosts: ['ok.lan', 'bad host/'], prot: 1 }));
    const error = await load(cwd).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(file);
    expect(message).toMatch(/port: /);
    expect(message).toMatch(/allowedHosts\.1: /);
    expect(message).toMatch(/prot/);
  });

  it('names the file of a config that is not valid JSON', async () => {
    const cwd = tempDir();
    const file = path.join(cwd, '.forgerc.json');
    fs.writeFileSync(file, '{ "port": ');
    await expect(load(cwd)).rejects.toThrow(file);
  });

  it('refuses a bad FORGE_PORT by name', async () => {
    const cwd = tempDir();
    await expect(load(cwd, { FORGE_PORT: 'eighty' })).rejects.toThrow(/FORGE_PORT "eighty"/);
    await expect(load(cwd, { FORGE_PORT: '70000' })).rejects.toThrow(/FORGE_PORT/);
  });

  it('redacts the token in the printed view', async () => {
    const cwd = tempDir();
    const view = toConfigView(await load(cwd, { FORGE_TOKEN: 'super-secret' }));
    expect(view.accessToken).toBe('***');
    expect(JSON.stringify(view)).not.toContain('super-secret');
  });
});
