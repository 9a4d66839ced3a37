import { afterEach, describe, expect, it } from 'vitest';
import type { ForgeChatItem, ServerMessage } from '@forge/shared';
import { watch } from './build-helpers.ts';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';

afterEach(cleanup);

const GREETING = 'Hello Brain';
const CODE = 'open sesame 42';
/** Text only the asking session (or the family) may ever see. */
const SECRETS = ['hunter2', 'wifi password', 'locker code', '4471', 'dinner-plan-zx', 'what do you remember'];

type Chat = Extract<ServerMessage, { type: 'chat' }>;
type Socket = Awaited<ReturnType<typeof watch>>;

function post(app: TestApp, route: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${app.url}${route}`, {
    method: route.startsWith('/api/memory-cells') ? 'PUT' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function clientIdOf(socket: Socket): Promise<string> {
  const hello = await socket.until((m) => m.type === 'hello');
  return (hello as Extract<ServerMessage, { type: 'hello' }>).clientId;
}

/** A signed-in brain session (its cookie), with one memory cell remembered through it. */
async function brainSession(app: TestApp): Promise<string> {
  expect((await post(app, '/api/brain/greeting', { greeting: GREETING })).status).toBe(200);
  expect((await post(app, '/api/brain/code', { code: CODE })).status).toBe(200);
  let cookie = '';
  for (const message of [GREETING, CODE, 'remember the wifi password is hunter2']) {
    const res = await post(app, '/api/brain/handshake', { message }, cookie ? { cookie } : {});
    const set = res.headers.getSetCookie();
    if (set.length) cookie = set[0]!.split(';')[0]!;
    expect(res.status).toBe(200);
  }
  return cookie;
}

async function familyToken(app: TestApp): Promise<string> {
  const password = 'correct horse battery';
  expect((await post(app, '/api/family/accounts', { name: 'mum', password })).status).toBe(200);
  const login = await post(app, '/api/login', { username: 'mum', password });
  return ((await login.json()) as { token: string }).token;
}

describe('private text', () => {
  it('reaches only the asking session: brain answers, memory cells and family chat never reach an anonymous socket', async () => {
    const app = await startTestApp();
    const anonymous = await watch(app);
    const asker = await watch(app);
    const askerId = await clientIdOf(asker);
    const cookie = await brainSession(app);
    const token = await familyToken(app);

    // A brain question without a clientId: answered in the HTTP response, broadcast to nobody.
    const overHttp = await post(app, '/api/chat', { q: 'brain: what is the wifi password' }, { cookie });
    expect(overHttp.status).toBe(200);
    const answer = (await overHttp.json()) as { ok: true; replies: ForgeChatItem[] };
    expect(answer.replies).toEqual([
      expect.objectContaining({ role: 'brain', message: 'the wifi password is hunter2.' }),
    ]);

    // With the asker's clientId: the question and its answer go to that socket alone.
    const viaSocket = await post(
      app,
      '/api/chat',
      { q: 'brain: what do you remember', clientId: askerId },
      { cookie },
    );
    expect(await viaSocket.json()).toEqual({ ok: true });
    const reply = (await asker.until((m) => m.type === 'chat' && m.role === 'brain')) as Chat;
    expect(reply.chat).toContain('hunter2');

    // A guest's brain question is private too, and a clientId that is not connected gets HTTP.
    const guest = await post(app, '/api/chat', { q: 'brain: status', clientId: 'not-connected' });
    expect(((await guest.json()) as { replies: ForgeChatItem[] }).replies[0]).toMatchObject({
      role: 'brain',
    });

    // Memory cells through MemoryBot's routes, and the family chat.
    const auth = { authorization: `Bearer ${token}` };
    expect((await post(app, '/api/memory-cells/locker code', { value: '4471' }, auth)).status).toBe(200);
    const del = await fetch(`${app.url}/api/memory-cells/locker%20code`, { method: 'DELETE', headers: auth });
    expect(del.status).toBe(200);
    expect((await post(app, '/api/family/chat', { text: 'dinner-plan-zx' }, auth)).status).toBe(200);

    // A public line afterwards reaches both sockets: everything sent before it has arrived.
    await post(app, '/api/chat', { q: 'help', clientId: askerId });
    const helped = (s: Socket) => s.until((m) => m.type === 'chat' && m.role === 'forge');
    await Promise.all([helped(anonymous), helped(asker)]);

    const heard = JSON.stringify(anonymous.messages).toLowerCase();
    for (const secret of SECRETS) expect(heard, secret).not.toContain(secret);
    expect(anonymous.messages.some((m) => m.type === 'chat' && m.role === 'brain')).toBe(false);
    expect(anonymous.messages.some((m) => m.type === 'family-chat')).toBe(false);
    // The asker saw its own question and answer, not the HTTP-only conversation.
    const askerChats = asker.messages.filter((m): m is Chat => m.type === 'chat').map((m) => m.chat);
    expect(askerChats).toContain('brain: what do you remember');
    expect(askerChats).not.toContain('brain: what is the wifi password');
  });
});
