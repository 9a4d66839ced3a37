import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryCell } from '@forge/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox, type RunResult } from './helpers.ts';

// `forge login`, `forge logout` and `forge memory` with the family token, against the real built
// daemon: the token kept in FORGE_HOME (0600 in 0700) and never printed, sent by forge memory,
// revoked by forge logout; refused and rate-limited logins; a logout while the daemon is down.

let sandbox: Sandbox;
let url: string;
beforeAll(async () => {
  sandbox = await Sandbox.withDaemon();
  url = sandbox.state()!.url;
});
afterAll(async () => {
  await sandbox.dispose();
});

const PASSWORD = 'correct horse battery';
const LOGIN_NEEDED = 'The memory cells need the family login: forge login <name>';
const sessionFile = () => join(sandbox.home, 'cli', 'family-session.json');
const stored = () =>
  existsSync(sessionFile())
    ? (JSON.parse(readFileSync(sessionFile(), 'utf8')) as Record<string, { token: string; name: string }>)
    : {};
const meStatus = async (token: string) =>
  (await fetch(`${url}/api/family/me`, { headers: { 'x-forge-family': token } })).status;

describe('forge login, forge memory, forge logout', () => {
  it('forge memory without a login says to log in; a wrong password is refused', async () => {
    const ls = await sandbox.run(['memory', 'ls']);
    expect(ls.code).toBe(1);
    expect(ls.stderr).toContain(`error: ${LOGIN_NEEDED}`);
    const json = await sandbox.run(['memory', 'ls', '--json']);
    expect(json.code).toBe(1);

    const add = await sandbox.runWithStdin(['family', 'add', 'Mum', '--password-stdin'], `${PASSWORD}\n`);
    expect(add.code, add.stderr).toBe(0);

    const wrong = await sandbox.runWithStdin(['login', 'mum', '--password-stdin'], 'not the password\n');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('error: Invalid credentials');
    expect(wrong.stderr).not.toContain('--token');
    expect(existsSync(sessionFile())).toBe(false);

    // Never an argument; no terminal and no --password-stdin: said plainly.
    expect((await sandbox.run(['login', 'mum', PASSWORD])).code).toBe(2);
    const noTerminal = await sandbox.runWithStdin(['login', 'mum'], `${PASSWORD}\n`);
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toContain('There is no terminal to type the password at.');
    const empty = await sandbox.runWithStdin(['login', 'mum', '--password-stdin'], '\n');
    expect(empty.code).toBe(2);
  });

  it('logs in (the token kept 0600, never printed), sends it with forge memory, and logs out', async () => {
    const login = await sandbox.runWithStdin(['login', 'mum', '--password-stdin'], `${PASSWORD}\n`);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain('Logged in to the university as Mum.');
    expect(statSync(sessionFile()).mode & 0o777).toBe(0o600);
    expect(statSync(join(sandbox.home, 'cli')).mode & 0o777).toBe(0o700);
    const { token, name } = stored()[url]!;
    expect(name).toBe('Mum');
    expect(await meStatus(token)).toBe(200);
    expect(login.stdout + login.stderr).not.toContain(token);

    const set = await sandbox.run(['memory', 'set', 'deploy', 'the staging box']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe('deploy = the staging box\n');
    const cells = MemoryCell.array().parse(
      JSON.parse((await sandbox.run(['memory', 'ls', '--json'])).stdout),
    );
    expect(cells).toEqual([{ key: 'deploy', value: 'the staging box', ts: expect.any(Number) }]);
    const rm = await sandbox.run(['memory', 'rm', 'deploy']);
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stderr).toContain('Forgot deploy.');

    const logout = await sandbox.run(['logout']);
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stderr).toContain('Logged out of the university (Mum).');
    expect(await meStatus(token)).toBe(401);
    expect(stored()).toEqual({});
    const after = await sandbox.run(['memory', 'ls']);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain(LOGIN_NEEDED);
    const again = await sandbox.run(['logout']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('Not logged in to the university here; nothing to do.');
  });

  it('a token the daemon no longer takes is forgotten, and forge memory says to log in again', async () => {
    expect((await sandbox.runWithStdin(['login', 'mum', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    expect(Object.keys(stored())).toEqual([url]);
    // A new password ends the account's sessions.
    const passwd = await sandbox.runWithStdin(
      ['family', 'passwd', 'mum', '--password-stdin'],
      `${PASSWORD} 2\n`,
    );
    expect(passwd.code, passwd.stderr).toBe(0);
    const ls = await sandbox.run(['memory', 'ls']);
    expect(ls.code).toBe(1);
    expect(ls.stderr).toContain(LOGIN_NEEDED);
    expect(stored()).toEqual({});
  });

  it('too many failed logins: the wait from Retry-After; a logout with the daemon down forgets the token', async () => {
    expect((await sandbox.runWithStdin(['login', 'mum', '--password-stdin'], `${PASSWORD} 2\n`)).code).toBe(
      0,
    );
    const { token } = stored()[url]!;
    let refused: RunResult | undefined;
    // Five failures from this address within the window; the next attempt is refused outright.
    for (let i = 0; i < 6 && !refused; i++) {
      const attempt = await sandbox.runWithStdin(['login', 'nobody', '--password-stdin'], 'wrong password\n');
      expect(attempt.code).toBe(1);
      if (!attempt.stderr.includes('Invalid credentials')) refused = attempt;
    }
    expect(refused?.stderr).toMatch(/error: Too many failed logins\. Try again in 1[45] minutes\./);

    expect((await sandbox.run(['daemon', 'stop'])).code).toBe(0);
    const logout = await sandbox.run(['logout']);
    expect(logout.code).toBe(3);
    expect(logout.stderr).toContain('Forgot the family login here, but could not tell the daemon');
    expect(logout.stderr).toContain('The token stays valid at the daemon until it expires');
    expect(logout.stderr).not.toContain(token);
    expect(stored()).toEqual({});
    // The daemon was not started for it.
    expect(sandbox.state()).toBeUndefined();
  });
});
