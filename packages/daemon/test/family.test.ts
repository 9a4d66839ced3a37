import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry, BotInfo, FamilyAccount, FamilyChatMessage, FamilySession } from '@forge/shared';
import { makeZip } from '@forge/testing';
import { STORE_FILE } from '../src/store/store.ts';
import { cleanup, openSocket, startTestApp, type TestApp, type TestSocket } from './helpers.ts';

// The university (AuthBot): accounts, login, lockout, expiry, logout, the guard on every family
// endpoint and on the memory cells, the family chat over /ws, and the audit log.

afterEach(cleanup);

// Every account and login here runs a real scrypt at the product's cost (N=2^17, 128 MiB): a few
// hundred ms on an idle core, seconds on a busy 2-core machine next to another test file's build,
// and a test makes up to ten of them.
vi.setConfig({ testTimeout: 120_000 });

const T0 = Date.parse('2025-06-01T08:00:00Z');
const MINUTE = 60_000;
const PASSWORD = 'correct horse battery';

async function appWithClock() {
  const clock = { now: T0 };
  const app = await startTestApp({ now: () => clock.now });
  return { app, clock };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** One request, optionally from another loopback address (127.0.0.2: another client to the limiter). */
function call(
  app: TestApp,
  method: string,
  route: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; from?: string } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: app.port,
        method,
        path: route,
        agent: false,
        ...(options.from ? { localAddress: options.from } : {}),
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text ? JSON.parse(text) : null,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const addAccount = async (app: TestApp, name: string, password = PASSWORD) => {
  const res = await call(app, 'POST', '/api/family/accounts', { body: { name, password } });
  expect(res).toMatchObject({ status: 200, body: { ok: true, name } });
};
const login = (app: TestApp, username: string, password: string, from?: string) =>
  call(app, 'POST', '/api/login', { body: { username, password }, ...(from ? { from } : {}) });
async function tokenOf(app: TestApp, name: string, password = PASSWORD): Promise<string> {
  const res = await login(app, name, password);
  expect(res.status).toBe(200);
  return (res.body as { token: string }).token;
}

/** Every endpoint the family token guards (university, memory manager). */
const PROTECTED: Array<[method: string, route: string, body?: unknown]> = [
  ['GET', '/api/family/me'],
  ['GET', '/api/family/chat'],
  ['POST', '/api/family/chat', { text: 'hello' }],
  ['GET', '/api/family/audit'],
  ['GET', '/api/memory-cells'],
  ['PUT', '/api/memory-cells/editor', { value: 'vim' }],
  ['DELETE', '/api/memory-cells/editor'],
];

async function expectAllRefused(app: TestApp, token?: string): Promise<void> {
  for (const [method, route, body] of PROTECTED) {
    const res = await call(app, method, route, { body, ...(token ? { token } : {}) });
    expect({ route: `${method} ${route}`, status: res.status, body: res.body }).toMatchObject({
      status: 401,
      body: { code: 'FAMILY_AUTH_REQUIRED', error: 'Family authentication required.' },
    });
  }
}

const invalid = { status: 401, body: { code: 'INVALID_CREDENTIALS', error: 'Invalid credentials' } };

describe('family login', () => {
  it('lets a family member in with a token, refuses every other pair alike, and logs out for good', async () => {
    const { app } = await appWithClock();
    await addAccount(app, 'Mum');
    await expectAllRefused(app);
    await expectAllRefused(app, 'not-a-real-token');

    expect(await login(app, 'mum', 'wrong password!')).toMatchObject(invalid);
    expect(await login(app, 'nobody', PASSWORD)).toMatchObject(invalid);
    const ok = await login(app, 'MUM', PASSWORD); // names are case-insensitive
    expect(ok.status).toBe(200);
    const { token } = ok.body as { token: string };
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    for (const [method, route, body] of PROTECTED) {
      const res = await call(app, method, route, { body, token });
      expect({ route: `${method} ${route}`, status: res.status }).toEqual({
        route: `${method} ${route}`,
        status: 200,
      });
    }
    const me = (await call(app, 'GET', '/api/family/me', { token })).body as FamilySession;
    expect(me).toEqual({
      name: 'Mum',
      idleExpiresAt: new Date(T0 + 30 * MINUTE).toISOString(),
      expiresAt: new Date(T0 + 12 * 60 * MINUTE).toISOString(),
    });

    expect(await call(app, 'POST', '/api/logout', { token })).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    await expectAllRefused(app, token);
    expect((await call(app, 'POST', '/api/logout', { token })).status).toBe(401);

    const bots = (await call(app, 'GET', '/api/bots')).body as BotInfo[];
    expect(bots.find((b) => b.name === 'AuthBot')).toMatchObject({
      status: 'active',
      lastJob: { label: 'logout Mum', ok: true, summary: 'Mum logged out' },
    });
  });

  it('answers an unknown name in about the time of a wrong password', async () => {
    const { app, clock } = await appWithClock();
    await addAccount(app, 'dad');
    let client = 10;
    const timed = async (name: string) => {
      const started = performance.now();
      // Each try from another loopback address, so the client lockout stays out of the way.
      expect(await login(app, name, 'not the password', `127.0.0.${client++}`)).toMatchObject(invalid);
      return performance.now() - started;
    };
    await timed('dad'); // warm up
    clock.now += 16 * MINUTE; // the name's count starts again
    let wrong = 0;
    let unknown = 0;
    for (let i = 0; i < 3; i++) {
      wrong += await timed('dad');
      unknown += await timed('ghost');
    }
    // Both run one scrypt (a dummy hash for the unknown name); without it the unknown name would
    // answer in a millisecond, hundreds of times faster. Loose bounds: the machine is busy.
    expect(unknown).toBeGreaterThan(wrong / 3);
    expect(unknown).toBeLessThan(wrong * 3);
  });

  it('locks a name out after 5 failures in 15 minutes, with Retry-After, until the window frees', async () => {
    const { app, clock } = await appWithClock();
    await addAccount(app, 'kid');
    for (let i = 0; i < 5; i++) {
      // From two addresses, so only the name's count reaches 5.
      expect(await login(app, 'kid', `guess number ${i}`, i % 2 ? '127.0.0.2' : '127.0.0.3')).toMatchObject(
        invalid,
      );
      clock.now += MINUTE;
    }
    const locked = await login(app, 'kid', PASSWORD, '127.0.0.4'); // even the right password, from anywhere
    expect(locked).toMatchObject({
      status: 429,
      body: { code: 'TOO_MANY_ATTEMPTS', error: 'Too many failed logins. Try again later.' },
    });
    // The first failure (at T0) leaves the window at T0 + 15 min; now is T0 + 5 min.
    expect(locked.headers['retry-after']).toBe(String(10 * 60));
    clock.now = T0 + 15 * MINUTE - 1_000;
    expect((await login(app, 'kid', PASSWORD, '127.0.0.4')).headers['retry-after']).toBe('1');
    clock.now = T0 + 15 * MINUTE;
    expect((await login(app, 'kid', PASSWORD, '127.0.0.4')).status).toBe(200);

    const audit = (await call(app, 'GET', '/api/family/audit', { token: await tokenOf(app, 'kid') }))
      .body as AuditEntry[];
    const failed = audit.filter((e) => e.action === 'login-failed');
    expect(failed).toHaveLength(5);
    expect(failed.map((e) => e.detail).sort()).toEqual([
      '127.0.0.2',
      '127.0.0.2',
      '127.0.0.3',
      '127.0.0.3',
      '127.0.0.3',
    ]);
    expect(failed.every((e) => e.actor === 'kid')).toBe(true);
  });

  it('locks a client out after 5 failures, whatever names it tries; a success resets only the name', async () => {
    const { app } = await appWithClock();
    await addAccount(app, 'gran');
    for (let i = 0; i < 4; i++) expect(await login(app, 'gran', `wrong guess ${i}`)).toMatchObject(invalid);
    expect((await login(app, 'gran', PASSWORD)).status).toBe(200);
    // The name starts again; this client has 5 failures now.
    expect(await login(app, 'gran', 'wrong again!')).toMatchObject(invalid);
    const blocked = await login(app, 'someone-else', 'anything at all');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBe(15 * 60);
    // Another client may still log in as gran (her count is 1).
    expect((await login(app, 'gran', PASSWORD, '127.0.0.2')).status).toBe(200);
  });
});

describe('family tokens', () => {
  it('travel in X-Forge-Family when Authorization carries the daemon access token', async () => {
    const app = await startTestApp({ config: { accessToken: 'daemon-access-token-123' } });
    const access = { authorization: 'Bearer daemon-access-token-123' };
    expect(
      (
        await call(app, 'POST', '/api/family/accounts', {
          body: { name: 'mum', password: PASSWORD },
          headers: access,
        })
      ).status,
    ).toBe(200);
    const res = await call(app, 'POST', '/api/login', {
      body: { username: 'mum', password: PASSWORD },
      headers: access,
    });
    const { token } = res.body as { token: string };
    expect(await call(app, 'GET', '/api/family/me', { headers: access })).toMatchObject({
      status: 401,
      body: { code: 'FAMILY_AUTH_REQUIRED' },
    });
    const me = await call(app, 'GET', '/api/family/me', { headers: { ...access, 'x-forge-family': token } });
    expect(me).toMatchObject({ status: 200, body: { name: 'mum' } });
    // Without the access token the daemon refuses first, family token or not.
    expect((await call(app, 'GET', '/api/family/me', { token })).body).toMatchObject({
      code: 'TOKEN_REQUIRED',
    });
  });

  it('expire after 30 minutes unused and 12 hours after login, whatever the use', async () => {
    const { app, clock } = await appWithClock();
    await addAccount(app, 'mum');
    const idle = await tokenOf(app, 'mum');
    clock.now += 29 * MINUTE;
    expect((await call(app, 'GET', '/api/family/me', { token: idle })).status).toBe(200);
    clock.now += 29 * MINUTE; // 58 minutes after login, 29 after the last use
    expect((await call(app, 'GET', '/api/memory-cells', { token: idle })).status).toBe(200);
    clock.now += 30 * MINUTE;
    await expectAllRefused(app, idle);

    const busy = await tokenOf(app, 'mum');
    const loggedInAt = clock.now;
    while (clock.now + 20 * MINUTE < loggedInAt + 12 * 60 * MINUTE) {
      clock.now += 20 * MINUTE;
      expect((await call(app, 'GET', '/api/family/me', { token: busy })).status).toBe(200);
    }
    clock.now = loggedInAt + 12 * 60 * MINUTE;
    await expectAllRefused(app, busy);
  });

  it('end when the account is removed or its password changed', async () => {
    const { app } = await appWithClock();
    await addAccount(app, 'dad');
    await addAccount(app, 'kid');
    const dad = await tokenOf(app, 'dad');
    const kid = await tokenOf(app, 'kid');
    const newPassword = 'a much better password';
    expect(
      await call(app, 'PUT', '/api/family/accounts/DAD/password', { body: { password: newPassword } }),
    ).toEqual(expect.objectContaining({ status: 200, body: { ok: true, name: 'dad' } }));
    await expectAllRefused(app, dad);
    expect(await login(app, 'dad', PASSWORD)).toMatchObject(invalid);
    expect((await login(app, 'dad', newPassword)).status).toBe(200);

    expect((await call(app, 'DELETE', '/api/family/accounts/kid')).body).toEqual({ ok: true, name: 'kid' });
    await expectAllRefused(app, kid);
    expect(await login(app, 'kid', PASSWORD)).toMatchObject(invalid);
  });
});

describe('family accounts', () => {
  it('are managed from this machine only, with clear errors, and never stored in clear', async () => {
    const { app } = await appWithClock();
    const origin = { origin: app.url };
    const refusals = [
      await call(app, 'GET', '/api/family/accounts', { headers: origin }),
      await call(app, 'POST', '/api/family/accounts', {
        body: { name: 'eve', password: PASSWORD },
        headers: origin,
      }),
      await call(app, 'DELETE', '/api/family/accounts/eve', { headers: origin }),
      await call(app, 'PUT', '/api/family/accounts/eve/password', {
        body: { password: PASSWORD },
        headers: origin,
      }),
    ];
    for (const res of refusals) {
      expect(res).toMatchObject({
        status: 403,
        body: {
          code: 'LOCAL_ONLY',
          error: 'Family accounts are managed from this machine, with the forge CLI.',
        },
      });
    }
    expect((await call(app, 'GET', '/api/family/accounts')).body).toEqual([]);

    await addAccount(app, 'Mum');
    expect(
      await call(app, 'POST', '/api/family/accounts', { body: { name: 'MUM', password: PASSWORD } }),
    ).toMatchObject({
      status: 409,
      body: { code: 'FAMILY_ACCOUNT_EXISTS' },
    });
    expect(
      await call(app, 'POST', '/api/family/accounts', { body: { name: 'dad', password: 'short' } }),
    ).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_FAILED' },
    });
    expect(await call(app, 'DELETE', '/api/family/accounts/ghost')).toMatchObject({
      status: 404,
      body: { code: 'FAMILY_ACCOUNT_NOT_FOUND', error: 'There is no family account named "ghost".' },
    });
    const token = await tokenOf(app, 'mum');
    const accounts = (await call(app, 'GET', '/api/family/accounts')).body as FamilyAccount[];
    expect(accounts).toEqual([
      { name: 'Mum', createdAt: new Date(T0).toISOString(), lastLoginAt: new Date(T0).toISOString() },
    ]);

    const row = app.store.db.prepare('SELECT password_hash FROM family_accounts').get() as {
      password_hash: string;
    };
    expect(row.password_hash).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
    app.store.db.pragma('wal_checkpoint(TRUNCATE)');
    const files = [STORE_FILE, `${STORE_FILE}-wal`]
      .map((f) => path.join(app.home, f))
      .filter((f) => fs.existsSync(f));
    const bytes = Buffer.concat(files.map((f) => fs.readFileSync(f)));
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.includes(PASSWORD)).toBe(false);
    expect(bytes.includes(token)).toBe(false);
  });

  it('writes every family action to the audit log, newest first', async () => {
    const { app, clock } = await appWithClock();
    await addAccount(app, 'mum');
    clock.now += 1_000;
    await login(app, 'mum', 'not her password');
    clock.now += 1_000;
    const first = await tokenOf(app, 'mum');
    await call(app, 'POST', '/api/logout', { token: first });
    await addAccount(app, 'kid');
    await call(app, 'PUT', '/api/family/accounts/kid/password', { body: { password: 'kid password 2' } });
    await call(app, 'DELETE', '/api/family/accounts/kid');
    const token = await tokenOf(app, 'mum');
    const audit = (await call(app, 'GET', '/api/family/audit', { token })).body as AuditEntry[];
    expect(audit.map((e) => [e.action, e.actor, e.detail])).toEqual([
      ['login', 'mum', '127.0.0.1'],
      ['account-removed', 'kid', '127.0.0.1'],
      ['password-changed', 'kid', '127.0.0.1'],
      ['account-added', 'kid', '127.0.0.1'],
      ['logout', 'mum', '127.0.0.1'],
      ['login', 'mum', '127.0.0.1'],
      ['login-failed', 'mum', '127.0.0.1'],
      ['account-added', 'mum', '127.0.0.1'],
    ]);
    expect(audit.at(-1)!.at).toBe(new Date(T0).toISOString());
  });
});

describe('family chat', () => {
  /** Messages a socket got, whatever their type (the helper's queue only answers waits). */
  const seen = (socket: TestSocket) => {
    const types: string[] = [];
    socket.ws.on('message', (data) => types.push((JSON.parse(data.toString()) as { type: string }).type));
    return types;
  };
  /** A ping's pong: every message the server sent before it has arrived. */
  const roundTrip = async (socket: TestSocket) => {
    socket.ws.send(JSON.stringify({ type: 'ping', id: 'sync' }));
    await socket.next('pong');
  };

  it('persists messages and delivers them live only to family-signed-in sockets', async () => {
    const { app, clock } = await appWithClock();
    await addAccount(app, 'mum');
    await addAccount(app, 'kid');
    const mum = await tokenOf(app, 'mum');
    const kid = await tokenOf(app, 'kid');

    const family = await openSocket(app.url);
    family.ws.send(JSON.stringify({ type: 'family-auth', token: kid }));
    expect(await family.next('family-auth')).toEqual({ type: 'family-auth', name: 'kid' });
    const plain = await openSocket(app.url);
    const plainSeen = seen(plain);
    const pretender = await openSocket(app.url);
    pretender.ws.send(JSON.stringify({ type: 'family-auth', token: 'guessed-token' }));
    expect(await pretender.next('family-auth')).toEqual({ type: 'family-auth', name: null });
    const pretenderSeen = seen(pretender);

    const sent = await call(app, 'POST', '/api/family/chat', {
      body: { text: '  dinner at 7  ' },
      token: mum,
    });
    expect(sent.status).toBe(200);
    const message = sent.body as FamilyChatMessage;
    expect(message).toEqual({
      id: expect.any(String),
      from: 'mum',
      text: 'dinner at 7',
      at: new Date(T0).toISOString(),
    });
    expect(await family.next('family-chat')).toEqual({ type: 'family-chat', message });
    await roundTrip(plain);
    await roundTrip(pretender);
    expect(plainSeen).not.toContain('family-chat');
    expect(pretenderSeen).not.toContain('family-chat');

    for (let i = 1; i <= 4; i++) {
      clock.now += 1_000;
      await call(app, 'POST', '/api/family/chat', { body: { text: `message ${i}` }, token: kid });
    }
    const all = (await call(app, 'GET', '/api/family/chat', { token: mum })).body as FamilyChatMessage[];
    expect(all.map((m) => [m.from, m.text])).toEqual([
      ['mum', 'dinner at 7'],
      ['kid', 'message 1'],
      ['kid', 'message 2'],
      ['kid', 'message 3'],
      ['kid', 'message 4'],
    ]);
    const page = (await call(app, 'GET', `/api/family/chat?before=${all[3]!.id}&limit=2`, { token: mum }))
      .body as FamilyChatMessage[];
    expect(page.map((m) => m.text)).toEqual(['message 1', 'message 2']);

    // A socket whose token ends (logout) is signed out at the next message, and gets no more.
    await call(app, 'POST', '/api/logout', { token: kid });
    for (let i = 0; i < 4; i++) await family.next('family-chat');
    await call(app, 'POST', '/api/family/chat', { body: { text: 'still there?' }, token: mum });
    expect(await family.next('family-auth')).toEqual({ type: 'family-auth', name: null });
    const familySeen = seen(family);
    await call(app, 'POST', '/api/family/chat', { body: { text: 'hello?' }, token: mum });
    await roundTrip(family);
    expect(familySeen).not.toContain('family-chat');
    // The messages were kept across a restart.
    await app.stop();
    const again = await startTestApp({ home: app.home });
    const fresh = await tokenOf(again, 'mum');
    const kept = (await call(again, 'GET', '/api/family/chat', { token: fresh })).body as FamilyChatMessage[];
    expect(kept.map((m) => m.text).slice(-2)).toEqual(['still there?', 'hello?']);
  });
});

describe('the audit log of extensions', () => {
  it('records an extension installed and removed, by the family member signed in', async () => {
    const { app } = await appWithClock();
    await addAccount(app, 'mum');
    const token = await tokenOf(app, 'mum');
    const form = new FormData();
    const zip = makeZip({
      'forge-extension.json': JSON.stringify({
        name: 'audited',
        displayName: 'Audited',
        route: '/ext/audited',
        version: '1.2.3',
      }),
      'index.html': '<h1>audited</h1>',
    });
    form.set('zipfile', new Blob([zip]), 'audited.zip');
    const installed = await fetch(`${app.url}/api/upload-extension`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(installed.status).toBe(200);
    expect((await call(app, 'DELETE', '/api/extensions/audited', { token })).status).toBe(200);

    const audit = (await call(app, 'GET', '/api/family/audit', { token })).body as AuditEntry[];
    const extensions = audit.filter((e) => e.action.startsWith('extension-'));
    expect(extensions.map((e) => [e.action, e.actor])).toEqual([
      ['extension-removed', 'mum'],
      ['extension-installed', 'mum'],
    ]);
    expect(extensions[1]!.detail).toContain('audited@1.2.3');
  });
});
