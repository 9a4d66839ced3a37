import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_HOST, DEFAULT_PORT } from '@forge/shared';
import { formatConfigView } from '@forge/shared';
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

  it('has no brain provider and 30-minute sessions by default', async () => {
    const config = await load(tempDir());
    expect(config.brain).toEqual({ provider: null, sessionMinutes: 30 });
  });

  it('reads brain.provider from the file, each field overridable by FORGE_BRAIN_*', async () => {
    const cwd = tempDir();
    fs.writeFileSync(
      path.join(cwd, '.forgerc.json'),
      JSON.stringify({
        brain: {
          provider: { url: 'http://127.0.0.1:11434/v1/', model: 'llama3.2', apiKey: 'file-key' },
          sessionMinutes: 90,
        },
      }),
    );
    expect((await load(cwd)).brain).toEqual({
      provider: { url: 'http://127.0.0.1:11434/v1', model: 'llama3.2', apiKey: 'file-key' },
      sessionMinutes: 90,
    });
    const fromEnv = await load(cwd, {
      FORGE_BRAIN_URL: 'https://models.example/v1',
      FORGE_BRAIN_MODEL: 'qwen2.5',
      FORGE_BRAIN_API_KEY: 'env-key',
    });
    expect(fromEnv.brain.provider).toEqual({
      url: 'https://models.example/v1',
      model: 'qwen2.5',
      apiKey: 'env-key',
    });
  });

  it('configures the provider from the environment alone, the key from apiKeyEnv', async () => {
    const cwd = tempDir();
    expect(
      (await load(cwd, { FORGE_BRAIN_URL: 'http://localhost:8080/v1', FORGE_BRAIN_MODEL: 'm' })).brain
        .provider,
    ).toEqual({ url: 'http://localhost:8080/v1', model: 'm', apiKey: null });
    fs.writeFileSync(
      path.join(cwd, '.forgerc.json'),
      JSON.stringify({
        brain: { provider: { url: 'http://localhost:8080/v1', model: 'm', apiKeyEnv: 'MY_MODEL_KEY' } },
      }),
    );
    expect((await load(cwd, { MY_MODEL_KEY: 'from-named-var' })).brain.provider?.apiKey).toBe(
      'from-named-var',
    );
    await expect(load(cwd)).rejects.toThrow(/apiKeyEnv .* names MY_MODEL_KEY, which is not set/);
  });

  it('refuses half a provider, a bad URL and an out-of-range session length by name', async () => {
    const cwd = tempDir();
    await expect(load(cwd, { FORGE_BRAIN_URL: 'http://localhost:8080/v1' })).rejects.toThrow(
      /needs both a url and a model; model \(FORGE_BRAIN_MODEL\) is not set/,
    );
    await expect(load(cwd, { FORGE_BRAIN_URL: 'ftp://x', FORGE_BRAIN_MODEL: 'm' })).rejects.toThrow(
      /Invalid FORGE_BRAIN_URL "ftp:\/\/x"/,
    );
    const file = path.join(cwd, '.forgerc.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ brain: { provider: { url: 'not a url', model: 'm', key: 'x' }, sessionMinutes: 0 } }),
    );
    const error = await load(cwd).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(file);
    expect(message).toMatch(/brain\.provider\.url: expected an http or https URL/);
    expect(message).toMatch(/brain\.provider: .*key/);
    expect(message).toMatch(/brain\.sessionMinutes: /);
  });

  it('shows the brain url and model in the printed view, never its key', async () => {
    const cwd = tempDir();
    const view = toConfigView(
      await load(cwd, {
        FORGE_BRAIN_URL: 'http://127.0.0.1:11434/v1',
        FORGE_BRAIN_MODEL: 'llama3.2',
        FORGE_BRAIN_API_KEY: 'sk-very-secret',
      }),
    );
    expect(view.brain).toEqual({
      provider: { url: 'http://127.0.0.1:11434/v1', model: 'llama3.2', apiKey: '***' },
      sessionMinutes: 30,
    });
    expect(JSON.stringify(view)).not.toContain('sk-very-secret');
    const text = formatConfigView(view);
    expect(text).toMatch(/^brain\.model\s+llama3\.2$/m);
    expect(text).toMatch(/^brain\.apiKey\s+\*\*\*$/m);
    expect(text).not.toContain('sk-very-secret');
  });
});

describe('the build queue (scale-out)', () => {
  it('is in-process by default and BullMQ when FORGE_QUEUE_URL or the file says so, the env winning', async () => {
    const cwd = tempDir();
    expect((await load(cwd)).queue).toEqual({ kind: 'in-process', url: null });
    fs.writeFileSync(path.join(cwd, '.forgerc.json'), JSON.stringify({ queue: 'redis://10.0.0.5:6379' }));
    expect((await load(cwd)).queue).toEqual({ kind: 'bullmq', url: 'redis://10.0.0.5:6379' });
    const fromEnv = await load(cwd, { FORGE_QUEUE_URL: 'redis://:s3cret@127.0.0.1:6390' });
    expect(fromEnv.queue).toEqual({ kind: 'bullmq', url: 'redis://:s3cret@127.0.0.1:6390' });
    // print-config shows which, with the Redis password hidden.
    const view = toConfigView(fromEnv);
    expect(view.queue).toEqual({ kind: 'bullmq', url: 'redis://:***@127.0.0.1:6390' });
    expect(formatConfigView(view)).toMatch(/^queue\s+bullmq \(redis:\/\/:\*\*\*@127\.0\.0\.1:6390\)$/m);
    expect(formatConfigView(toConfigView(await load(tempDir())))).toMatch(/^queue\s+in-process/m);
  });

  it('refuses a queue that is not a Redis URL, by name', async () => {
    const cwd = tempDir();
    await expect(load(cwd, { FORGE_QUEUE_URL: 'http://127.0.0.1:6379' })).rejects.toThrow(/FORGE_QUEUE_URL/);
    fs.writeFileSync(path.join(cwd, '.forgerc.json'), JSON.stringify({ queue: 'localhost' }));
    await expect(load(cwd)).rejects.toThrow(/queue: expected a Redis URL/);
  });
});
