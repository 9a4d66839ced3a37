import { describe, expect, it } from 'vitest';
import { isInheritable, scrubEnv } from './scrub-env.ts';

const parent = {
  PATH: '/usr/local/bin:/usr/bin',
  HOME: '/home/dev',
  LANG: 'en_US.UTF-8',
  LC_ALL: 'C.UTF-8',
  XDG_CACHE_HOME: '/home/dev/.cache',
  npm_config_cache: '/home/dev/.npm',
  FORGE_TOKEN: 'daemon-access-token',
  FORGE_HOME: '/home/dev/.forge',
  GITHUB_TOKEN: 'ghp_secret',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  AWS_ACCESS_KEY_ID: 'AKIA',
  DATABASE_PASSWORD: 'hunter2',
  NPM_TOKEN: 'npm-token',
  NODE_OPTIONS: '--inspect=0.0.0.0:9229',
  npm_lifecycle_event: 'dev',
  CI: 'false',
  SOME_RANDOM_VAR: 'x',
};

describe('scrubEnv', () => {
  it('keeps only allow-listed variables and never secrets or FORGE_*', () => {
    const env = scrubEnv(parent);
    expect(env).toMatchObject({
      PATH: parent.PATH,
      HOME: parent.HOME,
      LANG: parent.LANG,
      LC_ALL: parent.LC_ALL,
      XDG_CACHE_HOME: parent.XDG_CACHE_HOME,
      npm_config_cache: parent.npm_config_cache,
    });
    for (const name of [
      'FORGE_TOKEN',
      'FORGE_HOME',
      'GITHUB_TOKEN',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_ACCESS_KEY_ID',
      'DATABASE_PASSWORD',
      'NPM_TOKEN',
      'NODE_OPTIONS',
      'npm_lifecycle_event',
      'SOME_RANDOM_VAR',
    ]) {
      expect(env, name).not.toHaveProperty(name);
    }
    expect(Object.values(env).join(' ')).not.toMatch(/secret|hunter2|token/i);
  });

  it('sets the non-interactive defaults, overriding the parent', () => {
    const env = scrubEnv(parent);
    expect(env).toMatchObject({
      CI: 'true',
      FORCE_COLOR: '0',
      NO_UPDATE_NOTIFIER: '1',
      npm_config_update_notifier: 'false',
    });
  });

  it("applies the caller's variables last but never lets them set FORGE_*", () => {
    const env = scrubEnv(parent, {
      VITE_API_KEY: 'public-key',
      PORT: '5000',
      FORCE_COLOR: '1',
      LANG: undefined,
      FORGE_TOKEN: 'sneaky',
      forge_home: '/elsewhere',
    });
    expect(env).toMatchObject({ VITE_API_KEY: 'public-key', PORT: '5000', FORCE_COLOR: '1' });
    expect(env).not.toHaveProperty('LANG');
    expect(env).not.toHaveProperty('FORGE_TOKEN');
    expect(env).not.toHaveProperty('forge_home');
  });

  it('drops secret-looking names even under an allowed prefix', () => {
    expect(isInheritable('XDG_RUNTIME_DIR')).toBe(true);
    expect(isInheritable('XDG_SESSION_TOKEN')).toBe(false);
    expect(isInheritable('LC_SECRET')).toBe(false);
  });
});
