import { describe, expect, it } from 'vitest';
import { isCi, resolveGlobals } from './context.ts';

describe('resolveGlobals', () => {
  it('takes the daemon URL from --url, then FORGE_URL, then BOT_SERVICE_URL, without a trailing slash', () => {
    const env = { FORGE_URL: 'http://a:1/', BOT_SERVICE_URL: 'http://b:2' };
    expect(resolveGlobals({ url: 'http://flag:3/' }, env).url).toBe('http://flag:3');
    expect(resolveGlobals({}, env).url).toBe('http://a:1');
    expect(resolveGlobals({}, { BOT_SERVICE_URL: 'http://b:2' }).url).toBe('http://b:2');
    expect(resolveGlobals({}, { FORGE_URL: '  ' }).url).toBeUndefined();
  });

  it('takes the token from --token, then FORGE_TOKEN', () => {
    expect(resolveGlobals({ token: 'flag' }, { FORGE_TOKEN: 'env' }).token).toBe('flag');
    expect(resolveGlobals({}, { FORGE_TOKEN: 'env' }).token).toBe('env');
    expect(resolveGlobals({}, {}).token).toBeUndefined();
  });

  it('autostarts by default, not under CI unless asked, and never with FORGE_AUTOSTART=0', () => {
    expect(resolveGlobals({}, {}).autostart).toBe(true);
    expect(resolveGlobals({}, { CI: 'true' })).toMatchObject({
      autostart: false,
      autostartOffReason: 'under CI',
    });
    expect(resolveGlobals({ startDaemon: true }, { CI: 'true' }).autostart).toBe(true);
    expect(resolveGlobals({}, { CI: 'true', FORGE_AUTOSTART: '1' }).autostart).toBe(true);
    expect(resolveGlobals({}, { FORGE_AUTOSTART: '0' })).toMatchObject({
      autostart: false,
      autostartOffReason: 'because FORGE_AUTOSTART=0',
    });
    expect(resolveGlobals({ startDaemon: true }, { FORGE_AUTOSTART: '0' }).autostart).toBe(true);
  });
});

describe('isCi', () => {
  it.each([
    ['true', true],
    ['1', true],
    ['woodpecker', true],
    ['false', false],
    ['0', false],
    ['', false],
    [undefined, false],
  ])('CI=%j → %s', (value, expected) => {
    expect(isCi({ CI: value })).toBe(expected);
  });
});
