import { describe, expect, it } from 'vitest';
import { defaultDataDir, resolveForgeHome } from './paths.ts';

describe('data dir', () => {
  it('prefers FORGE_HOME when set', () => {
    expect(resolveForgeHome({ platform: 'linux', env: { FORGE_HOME: '/tmp/f' }, homedir: '/home/u' })).toBe(
      '/tmp/f',
    );
  });
  it('ignores a blank FORGE_HOME', () => {
    expect(resolveForgeHome({ platform: 'linux', env: { FORGE_HOME: '  ' }, homedir: '/home/u' })).toBe(
      '/home/u/.local/share/forge',
    );
  });
  it('follows XDG on Linux only when absolute', () => {
    expect(defaultDataDir({ platform: 'linux', env: { XDG_DATA_HOME: '/x' }, homedir: '/home/u' })).toBe(
      '/x/forge',
    );
    expect(defaultDataDir({ platform: 'linux', env: { XDG_DATA_HOME: 'rel' }, homedir: '/home/u' })).toBe(
      '/home/u/.local/share/forge',
    );
  });
  it('uses the platform data dir on macOS and Windows', () => {
    expect(defaultDataDir({ platform: 'darwin', env: {}, homedir: '/Users/u' })).toBe(
      '/Users/u/Library/Application Support/forge',
    );
    expect(defaultDataDir({ platform: 'win32', env: { LOCALAPPDATA: 'C:\\L' }, homedir: 'C:\\U' })).toBe(
      'C:\\L\\forge\\Data',
    );
  });
});
