import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FamilyAccount } from '@forge/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from './helpers.ts';

// `forge family add|ls|rm|passwd` against the real built daemon: the password from stdin (never an
// argument), accounts that log in to the university, sessions ended by passwd and rm, and no
// password in clear in the store.

let sandbox: Sandbox;
let url: string;
beforeAll(async () => {
  sandbox = await Sandbox.withDaemon();
  url = sandbox.state()!.url;
});
afterAll(async () => {
  await sandbox.dispose();
});

async function login(username: string, password: string): Promise<{ status: number; token?: string }> {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await res.json()) as { token?: string };
  return { status: res.status, ...(body.token ? { token: body.token } : {}) };
}

const meStatus = async (token: string) =>
  (await fetch(`${url}/api/family/me`, { headers: { authorization: `Bearer ${token}` } })).status;

describe('forge family', () => {
  it('adds accounts with the password from stdin, lists, re-passwords and removes them', async () => {
    const empty = await sandbox.run(['family', 'ls']);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('No family accounts yet. Add one: forge family add <name>');

    const PASSWORD = 'correct horse battery';
    const add = await sandbox.runWithStdin(['family', 'add', 'mum', '--password-stdin'], `${PASSWORD}\n`);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stderr).toContain('Added the family account mum: it logs in to the university at /login.');

    const again = await sandbox.runWithStdin(['family', 'add', 'MUM', '--password-stdin'], `${PASSWORD}\n`);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('A family account named "MUM" already exists.');

    // Never an argument; never too short; no terminal and no --password-stdin: said plainly.
    const asArgument = await sandbox.run(['family', 'add', 'dad', 'hunter2hunter2']);
    expect(asArgument.code).toBe(2);
    const short = await sandbox.runWithStdin(['family', 'add', 'dad', '--password-stdin'], 'short\n');
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('A password must be 10 to 200 characters; nothing was changed.');
    const noTerminal = await sandbox.runWithStdin(['family', 'add', 'dad'], `${PASSWORD}\n`);
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toContain('There is no terminal to type the password at.');
    expect(noTerminal.stderr).toContain('--password-stdin');

    const before = FamilyAccount.array().parse(
      JSON.parse((await sandbox.run(['family', 'ls', '--json'])).stdout),
    );
    expect(before).toEqual([{ name: 'mum', createdAt: expect.any(String), lastLoginAt: null }]);

    const first = await login('mum', PASSWORD);
    expect(first.status).toBe(200);
    expect(await meStatus(first.token!)).toBe(200);
    const table = await sandbox.run(['family', 'ls']);
    expect(table.stdout).toMatch(/^NAME\s+CREATED\s+LAST LOGIN\n/);
    expect(table.stdout).toMatch(/^mum\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+\d{4}-\d\d-\d\d \d\d:\d\d$/m);

    const NEW_PASSWORD = 'a better password 2';
    const passwd = await sandbox.runWithStdin(
      ['family', 'passwd', 'mum', '--password-stdin'],
      `${NEW_PASSWORD}\n`,
    );
    expect(passwd.code, passwd.stderr).toBe(0);
    expect(passwd.stderr).toContain('Changed the password of mum; its sessions ended.');
    expect(await meStatus(first.token!)).toBe(401);
    expect((await login('mum', PASSWORD)).status).toBe(401);
    const second = await login('mum', NEW_PASSWORD);
    expect(second.status).toBe(200);

    const rm = await sandbox.run(['family', 'rm', 'mum']);
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stderr).toContain('Removed the family account mum; its sessions ended.');
    expect(await meStatus(second.token!)).toBe(401);
    const missing = await sandbox.run(['family', 'rm', 'mum']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('There is no family account named "mum".');
    expect(missing.stderr).toContain('forge family ls');

    const store = ['forge.db', 'forge.db-wal']
      .map((f) => join(sandbox.home, f))
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f));
    expect(store.length).toBeGreaterThan(0);
    for (const bytes of store) {
      expect(bytes.includes(PASSWORD)).toBe(false);
      expect(bytes.includes(NEW_PASSWORD)).toBe(false);
    }
  });
});
