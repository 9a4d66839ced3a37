import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatWait } from '../commands/login.ts';
import {
  familyHeaders,
  familySessionFile,
  forgetFamilyLogins,
  readFamilyLogin,
  saveFamilyLogin,
} from './session.ts';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'forge-family-session-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const A = 'http://127.0.0.1:4000';
const B = 'http://forge.example:4000';
const login = (token: string, name = 'mum') => ({ token, name, at: '2024-05-01T12:00:00.000Z' });

describe('the family session file', () => {
  it('keeps one login per daemon address, owner-only, and forgets them', async () => {
    expect(await readFamilyLogin(home, A)).toBeUndefined();
    await saveFamilyLogin(home, A, login('t1'));
    await saveFamilyLogin(home, B, login('t2', 'dad'));
    await saveFamilyLogin(home, A, login('t3'));
    expect(await readFamilyLogin(home, A)).toEqual(login('t3'));
    expect(await readFamilyLogin(home, B)).toEqual(login('t2', 'dad'));
    expect(statSync(familySessionFile(home)).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'cli')).mode & 0o777).toBe(0o700);
    expect(familyHeaders(login('t3'))).toEqual({ 'x-forge-family': 't3' });

    expect(await forgetFamilyLogins(home, (url) => url.includes('127.0.0.1'))).toEqual([login('t3')]);
    expect(await forgetFamilyLogins(home, A)).toEqual([]);
    expect(Object.keys(JSON.parse(readFileSync(familySessionFile(home), 'utf8')) as object)).toEqual([B]);
  });

  it('a damaged file or entry is no login, not an error', async () => {
    mkdirSync(join(home, 'cli'), { recursive: true });
    writeFileSync(familySessionFile(home), '{not json');
    expect(await readFamilyLogin(home, A)).toBeUndefined();
    writeFileSync(familySessionFile(home), JSON.stringify({ [A]: { token: '', name: 'x' }, [B]: 3 }));
    expect(await readFamilyLogin(home, A)).toBeUndefined();
    expect(await readFamilyLogin(home, B)).toBeUndefined();
  });
});

describe('formatWait', () => {
  it('seconds under a minute, else whole minutes rounded up', () => {
    expect(formatWait(1)).toBe('1 second');
    expect(formatWait(40)).toBe('40 seconds');
    expect(formatWait(60)).toBe('1 minute');
    expect(formatWait(61)).toBe('2 minutes');
    expect(formatWait(900)).toBe('15 minutes');
  });
});
