import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { brainSessionFile, openBrainSession, parseSetCookie } from './session.ts';

const NOW = Date.parse('2024-05-01T12:00:00.000Z');

describe('parseSetCookie', () => {
  it('takes forge_brain and its expiry; leaves other cookies', () => {
    expect(parseSetCookie(['other=1', 'forge_brain=abc; Path=/api; HttpOnly; SameSite=Strict'], NOW)).toEqual(
      {
        cookie: 'forge_brain=abc',
        expiresAt: null,
      },
    );
    expect(parseSetCookie(['forge_brain=abc; Max-Age=60'], NOW)).toEqual({
      cookie: 'forge_brain=abc',
      expiresAt: '2024-05-01T12:01:00.000Z',
    });
    // Max-Age wins over Expires.
    expect(
      parseSetCookie(['forge_brain=abc; Expires=Wed, 01 May 2024 13:00:00 GMT; Max-Age=10'], NOW)?.expiresAt,
    ).toBe('2024-05-01T12:00:10.000Z');
    expect(parseSetCookie(['other=1'], NOW)).toBeUndefined();
  });

  it('a removal (empty value, Max-Age 0, Expires past) is null', () => {
    expect(parseSetCookie(['forge_brain=; Path=/api'], NOW)).toBeNull();
    expect(parseSetCookie(['forge_brain=abc; Max-Age=0'], NOW)).toBeNull();
    expect(parseSetCookie(['forge_brain=abc; Expires=Thu, 01 Jan 1970 00:00:00 GMT'], NOW)).toBeNull();
  });
});

describe('openBrainSession', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'forge-brain-'));
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
  });

  it('keeps one session per daemon address, in a file of mode 0600', async () => {
    const a = await openBrainSession(home, 'http://a', () => NOW);
    expect(a.headers()).toEqual({});
    a.take({ 'set-cookie': ['forge_brain=one; Path=/api; HttpOnly'] });
    a.note({ authenticated: true });
    await a.save();
    const b = await openBrainSession(home, 'http://b', () => NOW);
    b.take({ 'set-cookie': ['forge_brain=two'] });
    await b.save();

    expect(statSync(brainSessionFile(home)).mode & 0o777).toBe(0o600);
    const again = await openBrainSession(home, 'http://a', () => NOW);
    expect(again.headers()).toEqual({ cookie: 'forge_brain=one' });
    expect(again.authenticated).toBe(true);
    expect((await openBrainSession(home, 'http://b', () => NOW)).headers()).toEqual({
      cookie: 'forge_brain=two',
    });
  });

  it('forgets an expired cookie, a session the daemon ended, and a damaged file', async () => {
    const s = await openBrainSession(home, 'http://a', () => NOW);
    s.take({ 'set-cookie': ['forge_brain=one; Max-Age=60'] });
    await s.save();
    expect((await openBrainSession(home, 'http://a', () => NOW + 61_000)).headers()).toEqual({});

    const t = await openBrainSession(home, 'http://a', () => NOW);
    t.note({ authenticated: false, sessionExpired: true });
    await t.save();
    expect(JSON.parse(readFileSync(brainSessionFile(home), 'utf8'))).toEqual({});

    writeFileSync(brainSessionFile(home), '{not json');
    expect((await openBrainSession(home, 'http://a', () => NOW)).headers()).toEqual({});
  });

  it('tightens a file left readable by others when it writes it again', async () => {
    mkdirSync(join(home, 'cli'), { recursive: true });
    writeFileSync(brainSessionFile(home), '{}', { mode: 0o644 });
    const s = await openBrainSession(home, 'http://a', () => NOW);
    s.take({ 'set-cookie': ['forge_brain=x'] });
    await s.save();
    expect(statSync(brainSessionFile(home)).mode & 0o777).toBe(0o600);
  });
});
