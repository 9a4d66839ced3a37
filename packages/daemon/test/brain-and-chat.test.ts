import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BotInfo, Build, BrainReply, BrainStatus, MemoryCell, ServerMessage } from '@forge/shared';
import { startFakeModelServer } from '../src/capabilities/model/openai-server.fixture.ts';
import { makeBlueprint } from '@forge/testing';
import { CHAT_HELP } from '../src/features/chat/commands.ts';
import { makeZip, upload, watch } from './build-helpers.ts';
import { cleanup, onCleanup, startTestApp, type TestApp, type TestAppOptions } from './helpers.ts';

afterEach(cleanup);

const GREETING = 'Hello Brain';
const CODE = 'open sesame 42';
const KEY = 'sk-brain-test-key-5f1d2c';
const T0 = Date.parse('2025-03-01T10:00:00Z');
const MINUTE = 60_000;

type Chat = Extract<ServerMessage, { type: 'chat' }>;

/** An app whose clock the test moves. */
async function appWithClock(options: TestAppOptions = {}) {
  const clock = { now: T0 };
  const app = await startTestApp({ now: () => clock.now, ...options });
  return { app, clock };
}

async function post(app: TestApp, route: string, body: unknown, cookie?: string): Promise<Response> {
  return fetch(`${app.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

/**
 * A family member's token: the memory-cells routes are the university's memory manager (AuthBot's
 * guard), unlike the brain's "remember …", which goes through the brain's own session.
 */
async function familyToken(app: TestApp, name = 'mum'): Promise<string> {
  const password = 'correct horse battery';
  const add = await post(app, '/api/family/accounts', { name, password });
  expect([200, 409]).toContain(add.status); // 409: the account is in the store from an earlier start
  const login = await post(app, '/api/login', { username: name, password });
  expect(login.status).toBe(200);
  return ((await login.json()) as { token: string }).token;
}

/** A brain chat client that keeps the session cookie, as the browser (and the CLI) do. */
function brainClient(app: TestApp) {
  const client = {
    cookie: undefined as string | undefined,
    setCookies: [] as string[],
    async say(message: string): Promise<BrainReply> {
      const res = await post(app, '/api/brain/handshake', { message }, client.cookie);
      expect(res.status).toBe(200);
      const set = res.headers.getSetCookie();
      if (set.length) {
        client.setCookies.push(...set);
        client.cookie = set[0]!.split(';')[0];
      }
      return (await res.json()) as BrainReply;
    },
    async status(): Promise<BrainStatus> {
      const res = await fetch(`${app.url}/api/brain/status`, {
        headers: client.cookie ? { cookie: client.cookie } : {},
      });
      return (await res.json()) as BrainStatus;
    },
    async authenticate(): Promise<void> {
      expect((await client.say(GREETING)).reply).toBe('Hello. Now send your code phrase.');
      expect(await client.say(CODE)).toEqual({
        reply: 'Authentication successful. Session established.',
        authenticated: true,
        sessionExpired: false,
      });
    },
  };
  return client;
}

async function setPhrases(app: TestApp): Promise<void> {
  expect((await post(app, '/api/brain/greeting', { greeting: GREETING })).status).toBe(200);
  expect(await (await post(app, '/api/brain/code', { code: CODE })).json()).toEqual({
    ok: true,
    greetingSet: true,
    codeSet: true,
  });
}

async function bot(app: TestApp, name: string): Promise<BotInfo> {
  const bots = (await (await fetch(`${app.url}/api/bots`)).json()) as BotInfo[];
  return bots.find((b) => b.name === name)!;
}

/**
 * A project "shop" as Forge keeps it after a failed build: its files on disk, and a build record with
 * BlueprintBot's plan, ScanBot's diagnosis and RepairBot's proposed repair.
 */
function seedFailedProject(app: TestApp): Build {
  const { layout, repo } = app.forge.services;
  const dir = layout.projectDir('shop');
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'shop', scripts: { dev: 'vite', build: 'vite build' } }),
  );
  fs.writeFileSync(path.join(dir, 'index.html'), '<div id="root"></div>');
  fs.writeFileSync(path.join(dir, 'src', 'App.tsx'), "import confetti from 'canvas-confetti';\n");
  fs.writeFileSync(path.join(dir, 'src', 'main.tsx'), "import './App';\n");
  repo.touchProject('shop', new Date());
  const created = repo.createBuild('shop', { noCache: false, now: new Date() });
  const at = new Date().toISOString();
  const build: Build = {
    ...created,
    status: 'failed',
    stage: 'build-failed',
    endedAt: at,
    durationMs: 1_200,
    blueprint: makeBlueprint(),
    error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
    diagnosis: {
      code: 'MISSING_PACKAGE',
      summary: 'src/App.tsx imports canvas-confetti, which package.json does not declare.',
      file: 'src/App.tsx',
      line: 1,
      column: 22,
      suggestion: 'Add it to package.json (RepairBot can: forge fix).',
      subjects: ['canvas-confetti'],
      repair: 'ADD_MISSING_PACKAGES',
    },
    repairs: [
      {
        id: 'r_test1',
        code: 'ADD_MISSING_PACKAGES',
        summary: 'RepairBot added canvas-confetti@^1.9.3 to package.json',
        files: ['package.json'],
        status: 'proposed',
        diff: '',
        at,
        buildId: created.id,
      },
    ],
  };
  repo.save(build);
  return build;
}

describe('brain sessions', () => {
  it('greeting, code phrase, answers, and expiry after the session length', async () => {
    const { app, clock } = await appWithClock();
    const me = brainClient(app);

    const unset = await me.say('hello there');
    expect(unset.authenticated).toBe(false);
    expect(unset.reply).toContain('forge brain set-greeting "<text>"');
    expect(unset.reply).toContain('forge brain set-code');
    // The session cookie: HttpOnly, SameSite=Strict, on /api (the brain's and the chat's routes).
    expect(me.setCookies).toHaveLength(1);
    expect(me.setCookies[0]).toMatch(
      /^forge_brain=[A-Za-z0-9_-]{43}; Path=\/api; HttpOnly; SameSite=Strict$/,
    );

    const short = await post(app, '/api/brain/code', { code: 'short' });
    expect(short.status).toBe(400);
    await setPhrases(app);

    expect((await me.say('what is the wifi password')).reply).toBe(
      'I answer guests with "help" and "status" only. Start with your greeting phrase, then send your code phrase.',
    );
    expect(await me.say('  hello   BRAIN ')).toEqual({
      reply: 'Hello. Now send your code phrase.',
      authenticated: false,
      sessionExpired: false,
    });
    const wrong = await me.say('open sesame 43');
    expect(wrong).toMatchObject({ authenticated: false, sessionExpired: false });
    expect(wrong.reply).toMatch(/^That is not the code phrase\. You are still a guest \(4 tries left/);
    expect(await me.status()).toEqual({ authenticated: false, sessionTimeRemaining: 0, memoryCellCount: 0 });

    expect(await me.say(CODE)).toEqual({
      reply: 'Authentication successful. Session established.',
      authenticated: true,
      sessionExpired: false,
    });
    expect(await me.status()).toEqual({
      authenticated: true,
      sessionTimeRemaining: 30 * MINUTE,
      memoryCellCount: 0,
    });
    // Another client (no cookie) is a guest.
    expect((await brainClient(app).status()).authenticated).toBe(false);

    clock.now += 10 * MINUTE;
    expect((await me.status()).sessionTimeRemaining).toBe(20 * MINUTE);
    expect((await me.say('remember the wifi password is hunter2.')).reply).toBe(
      'Remembered: the wifi password is hunter2.',
    );
    expect((await me.say('What is the WiFi password?')).reply).toBe('the wifi password is hunter2.');
    expect((await me.status()).memoryCellCount).toBe(1);
    expect((await me.say(GREETING)).reply).toBe('You are already authenticated: 20:00 left in this session.');

    clock.now += 20 * MINUTE;
    expect((await me.status()).authenticated).toBe(false);
    expect(await me.say('what is the wifi password')).toEqual({
      reply: 'Session expired. Please re-authenticate.',
      authenticated: false,
      sessionExpired: true,
    });
    const after = await me.say('what is the wifi password');
    expect(after).toMatchObject({ authenticated: false, sessionExpired: false });
    expect(after.reply).not.toContain('hunter2');

    await me.authenticate();
    expect((await me.status()).sessionTimeRemaining).toBe(30 * MINUTE);
    // A new code phrase ends every session.
    expect((await post(app, '/api/brain/code', { code: 'another phrase 7' })).status).toBe(200);
    expect((await me.status()).authenticated).toBe(false);
    expect((await bot(app, 'BrainBot')).lastJob).toMatchObject({
      ok: true,
      summary: 'stored a new code phrase (as a scrypt hash); sessions ended',
    });
  });

  it('keeps only a scrypt hash of the code phrase: never the phrase, in the flags or anywhere in the store', async () => {
    const { app } = await appWithClock();
    await setPhrases(app);
    const me = brainClient(app);
    await me.authenticate();
    const flags = app.store.db.prepare('SELECT key, value FROM flags').all() as Array<{
      key: string;
      value: string;
    }>;
    const code = flags.find((f) => f.key === 'brain.codeHash');
    expect(JSON.parse(code!.value)).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(JSON.stringify(flags)).not.toContain(CODE);
    app.store.db.pragma('wal_checkpoint(TRUNCATE)');
    for (const file of [app.store.file, `${app.store.file}-wal`]) {
      if (fs.existsSync(file)) expect(fs.readFileSync(file).includes(CODE)).toBe(false);
    }
    expect(JSON.stringify(app.logLines())).not.toContain(CODE);
  });

  it('refuses a code phrase equal to the greeting, and the reverse', async () => {
    const { app } = await appWithClock();
    await setPhrases(app);
    const same = await post(app, '/api/brain/code', { code: 'hello brain' });
    expect(same.status).toBe(400);
    expect(((await same.json()) as { error: string }).error).toBe(
      'The code phrase must differ from the greeting.',
    );
    const greeting = await post(app, '/api/brain/greeting', { greeting: CODE });
    expect(greeting.status).toBe(400);
    expect(((await greeting.json()) as { error: string }).error).toBe(
      'The greeting must differ from the code phrase.',
    );
  });

  it('makes a session wait after 5 wrong code phrases in 10 minutes', async () => {
    const { app, clock } = await appWithClock();
    await setPhrases(app);
    const me = brainClient(app);
    await me.say(GREETING);
    for (let i = 1; i <= 4; i++) {
      expect((await me.say(`wrong phrase ${i}`)).reply).toContain('That is not the code phrase.');
      clock.now += MINUTE;
    }
    expect((await me.say('wrong phrase 5')).reply).toBe(
      'That is not the code phrase. Too many wrong code phrases: wait 6 minutes before trying again.',
    );
    // Even the right phrase is not checked while the session waits.
    expect(await me.say(CODE)).toEqual({
      reply: 'Too many wrong code phrases. Wait 6 minutes before trying again.',
      authenticated: false,
      sessionExpired: false,
    });
    // Per session: another one is not held up.
    await brainClient(app).authenticate();
    // Once the first wrong phrase is 10 minutes old, one more try is allowed.
    clock.now += 6 * MINUTE;
    expect((await me.say(CODE)).authenticated).toBe(true);
  });
});

describe('memory cells', () => {
  it('are set, listed newest first, forgotten, and kept across a restart', async () => {
    const { app, clock } = await appWithClock();
    const tokens = new Map<TestApp, string>([[app, await familyToken(app)]]);
    const auth = (a: TestApp) => ({ authorization: `Bearer ${tokens.get(a)}` });
    const put = (key: string, value: string) =>
      fetch(`${app.url}/api/memory-cells/${encodeURIComponent(key)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...auth(app) },
        body: JSON.stringify({ value }),
      });
    expect(await (await put('editor', 'vim')).json()).toEqual({ key: 'editor', value: 'vim', ts: T0 });
    clock.now += 1_000;
    await put('dev port', '5173');
    const list = async (a: TestApp) =>
      (await (await fetch(`${a.url}/api/memory-cells`, { headers: auth(a) })).json()) as MemoryCell[];
    expect(await list(app)).toEqual([
      { key: 'dev port', value: '5173', ts: T0 + 1_000 },
      { key: 'editor', value: 'vim', ts: T0 },
    ]);
    const missing = await fetch(`${app.url}/api/memory-cells/nothing`, {
      method: 'DELETE',
      headers: auth(app),
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      code: 'MEMORY_CELL_NOT_FOUND',
      error: 'There is no memory cell named "nothing".',
    });
    const forgot = await fetch(`${app.url}/api/memory-cells/editor`, {
      method: 'DELETE',
      headers: auth(app),
    });
    expect(await forgot.json()).toEqual({
      ok: true,
      key: 'editor',
    });
    expect((await bot(app, 'MemoryBot')).lastJob).toMatchObject({
      label: 'forget a cell',
      summary: 'Forgot a cell (1 in memory)',
    });

    clock.now += 1_000;
    await setPhrases(app);
    const me = brainClient(app);
    await me.authenticate();
    expect((await me.say('remember that the deploy target is fly.io')).reply).toBe(
      'Remembered: the deploy target is fly.io.',
    );
    expect((await me.say('remember the deploy target is render')).reply).toBe(
      'Updated: the deploy target is render (it was fly.io).',
    );

    await app.stop();
    const again = await startTestApp({ home: app.home });
    tokens.set(again, await familyToken(again));
    expect((await list(again)).map((c) => [c.key, c.value])).toEqual([
      ['the deploy target', 'render'],
      ['dev port', '5173'],
    ]);
    // Sessions live in memory: after a restart the user authenticates again; the phrases are kept.
    const back = brainClient(again);
    back.cookie = me.cookie;
    expect((await back.status()).authenticated).toBe(false);
    back.cookie = undefined;
    await back.authenticate();
    expect((await back.say('what do you remember?')).reply).toBe(
      'I remember 2 things:\n- the deploy target: render\n- dev port: 5173',
    );
    expect((await back.say('forget the deploy target')).reply).toBe('Forgotten: the deploy target.');
    expect((await back.say('forget my cat')).reply).toBe('I have nothing remembered as "my cat".');
    expect(await back.status()).toMatchObject({ memoryCellCount: 1 });
  });
});

describe('the built-in engine', () => {
  it("answers from the project's blueprint, scripts, files and builds, and says what it cannot", async () => {
    const { app } = await appWithClock();
    const build = seedFailedProject(app);
    await setPhrases(app);
    const me = brainClient(app);
    await me.authenticate();

    const framework = (await me.say('Which framework does it use?')).reply;
    expect(framework).toContain('shop is a site built to static files: framework vite, package manager npm.');
    expect(framework).toContain('Install: npm ci. Build: npm run build.');
    expect(framework).toContain('Output folder: dist.');
    expect((await me.say('what scripts are there')).reply).toBe(
      "Scripts in shop's package.json:\n- dev: vite\n- build: vite build\nForge runs: install with npm ci; build with npm run build.",
    );
    expect((await me.say('how many files?')).reply).toBe(
      'shop has 4 files in 1 folder (node_modules, .git and the build output not counted).\nAt the top: index.html, package.json.\nTop folders: src/.',
    );
    expect((await me.say('where is app.tsx')).reply).toBe('app.tsx is at src/App.tsx.');
    expect((await me.say('where is nothing.ts?')).reply).toBe('There is no file named "nothing.ts" in shop.');

    const why = (await me.say('Why did the build fail?')).reply;
    expect(why).toContain(`The last build of shop (${build.id}) failed`);
    expect(why).toContain(
      'Cause: src/App.tsx imports canvas-confetti, which package.json does not declare. (src/App.tsx:1:22)',
    );
    expect(why).toContain('Suggestion: Add it to package.json (RepairBot can: forge fix).');
    expect(why).toContain(
      '- RepairBot added canvas-confetti@^1.9.3 to package.json (proposed; package.json)',
    );
    expect((await bot(app, 'BrainBot')).lastJob).toMatchObject({
      ok: true,
      summary: "explained the project's last failure",
    });

    const unknown = await me.say('what is the meaning of life?');
    expect(unknown.reply).toMatch(
      /^I don't know: I have nothing remembered as "the meaning of life", and Forge's records of shop do not answer it\. A language model could: configure brain\.provider/,
    );
    expect(unknown.reply).toContain("I answer from Forge's records about a project");
    expect(unknown.certainty).toBe('unknown');
    expect(unknown.needs).toMatch(/^a language model: configure brain\.provider/);

    const help = (await me.say('help')).reply;
    expect(help).toContain('"where is App.tsx"');
    expect(help).toContain('Anything else needs a language model: set brain.provider in the Forge config.');
  });

  it('gives a guest help and status only', async () => {
    const { app } = await appWithClock();
    seedFailedProject(app);
    await setPhrases(app);
    const guest = brainClient(app);
    const refused = await guest.say('why did the build fail?');
    expect(refused.reply).not.toContain('canvas-confetti');
    expect(refused.reply).toContain('"help" and "status" only');
    expect((await guest.say('help')).reply).toMatch(/^You are a guest: I answer "help" and "status" only\./);
    const status = (await guest.say('status')).reply;
    expect(status).toContain('Brain: guest (not authenticated).');
    expect(status).toContain('Language model: none (built-in answers only).');
    expect(status).not.toContain('Memory:');
  });
});

describe('chat', () => {
  it('answers build, status, fix, brain and anything else over /ws', async () => {
    const { app } = await appWithClock();
    const socket = await watch(app);
    const hello = await socket.until((m) => m.type === 'hello');
    const clientId = (hello as Extract<ServerMessage, { type: 'hello' }>).clientId;
    const chats = () => socket.messages.filter((m): m is Chat => m.type === 'chat');
    const reply = (after: number, pred: (m: Chat) => boolean = () => true) =>
      socket.until(
        (m) => m.type === 'chat' && m.role !== 'user' && chats().indexOf(m) >= after && pred(m),
      ) as Promise<Chat>;
    const send = async (q: string, cookie?: string) => {
      const before = chats().length;
      const res = await post(app, '/api/chat', { q, clientId }, cookie);
      expect(await res.json()).toEqual({ ok: true });
      return before;
    };

    let at = await send('hello');
    expect(await reply(at)).toMatchObject({ role: 'forge', chat: CHAT_HELP });
    // The user's own line is broadcast once, before the answer (the sender matches it to its own).
    expect(
      chats()
        .slice(at)
        .map((m) => [m.role, m.chat]),
    ).toEqual([
      ['user', 'hello'],
      ['forge', CHAT_HELP],
    ]);

    at = await send('build');
    expect((await reply(at)).chat).toBe('There is no project yet: upload one (a ZIP) first.');

    const uploaded = (await (
      await upload(app, makeZip('site.zip', { 'index.html': '<h1>hi</h1>' }))
    ).json()) as {
      buildId: string;
    };
    await socket.finished(uploaded.buildId);
    at = await send('build');
    const started = await reply(at);
    const id = /^Building site: build (\S+)\.$/.exec(started.chat)?.[1];
    expect(id).toBeDefined();
    const done = await reply(at, (m) => m.chat.startsWith(`Build ${id} of site`));
    expect(done.chat).toMatch(new RegExp(`^Build ${id} of site succeeded in .+\\.`));

    at = await send('build: nope');
    expect((await reply(at)).chat).toBe('There is no project named "nope". Projects: site.');

    at = await send('status');
    const status = await reply(at);
    expect(status.role).toBe('forge');
    expect(status.chat.length).toBeGreaterThan(0);

    at = await send('fix');
    const fixed = await reply(at);
    expect(fixed.role).toBe('forge');
    expect(fixed.chat).not.toBe('');

    at = await send('brain: what is the wifi password');
    expect(await reply(at)).toMatchObject({
      role: 'brain',
      chat: 'You are a guest: I answer "help" and "status" only. To authenticate, send your greeting phrase, then your code phrase, in the brain chat.',
    });
    expect((await reply(at)).replyId).toBeUndefined();
    at = await send('brain: status');
    expect((await reply(at)).chat).toContain('Brain: guest (not authenticated).');

    await setPhrases(app);
    const me = brainClient(app);
    await me.authenticate();
    await me.say('remember the wifi password is hunter2');
    at = await send('brain: what is the wifi password', me.cookie);
    expect(await reply(at)).toMatchObject({ role: 'brain', chat: 'the wifi password is hunter2.' });
    expect((await bot(app, 'ChatBot')).lastJob).toMatchObject({
      label: 'chat: brain',
      summary: 'passed a question to BrainBot',
    });
  });
});

describe('chat privacy', () => {
  it("sends a signed-in session's brain question and answer to the asking connection alone", async () => {
    const { app } = await appWithClock();
    const asker = await watch(app);
    const other = await watch(app);
    const hello = await asker.until((m) => m.type === 'hello');
    const clientId = (hello as Extract<ServerMessage, { type: 'hello' }>).clientId;
    await setPhrases(app);
    const me = brainClient(app);
    await me.authenticate();
    await me.say('remember the wifi password is hunter2');

    const res = await post(app, '/api/chat', { q: 'brain: what is the wifi password', clientId }, me.cookie);
    expect(await res.json()).toEqual({ ok: true });
    const answer = await asker.until((m) => m.type === 'chat' && m.role === 'brain');
    expect(answer).toMatchObject({ chat: 'the wifi password is hunter2.' });
    expect(asker.messages.filter((m) => m.type === 'chat').map((m) => (m as Chat).role)).toEqual([
      'user',
      'brain',
    ]);
    // A command for everyone afterwards reaches the other client; the private lines never did.
    await post(app, '/api/chat', { q: 'help', clientId });
    await other.until((m) => m.type === 'chat' && m.role === 'forge');
    const seen = other.messages.filter((m): m is Chat => m.type === 'chat').map((m) => m.chat);
    expect(seen).toEqual(['help', CHAT_HELP]);
    expect(JSON.stringify(other.messages)).not.toContain('hunter2');

    // A guest's brain question is the asker's too: the other client never sees it.
    await post(app, '/api/chat', { q: 'brain: status', clientId });
    await asker.until((m) => m.type === 'chat' && m.role === 'brain' && m.chat.includes('Brain: guest'));
    await post(app, '/api/chat', { q: 'status', clientId });
    await other.until((m) => m.type === 'chat' && m.role === 'forge' && m.chat !== CHAT_HELP);
    expect(other.messages.some((m) => m.type === 'chat' && m.role === 'brain')).toBe(false);
  });
});

describe('the brain with a language model', () => {
  it('streams the answer over chat with the project context, the key sent and never logged', async () => {
    const model = await startFakeModelServer();
    onCleanup(() => model.close());
    const { app } = await appWithClock({
      config: {
        brain: { provider: { url: model.url, model: 'llama-test', apiKey: KEY }, sessionMinutes: 30 },
      },
    });
    seedFailedProject(app);
    await setPhrases(app);
    const me = brainClient(app);
    await me.authenticate();
    // Memory commands are the engine's own, model or not.
    expect((await me.say('remember the deploy target is fly.io')).reply).toBe(
      'Remembered: the deploy target is fly.io.',
    );

    const socket = await watch(app);
    const hello = await socket.until((m) => m.type === 'hello');
    const clientId = (hello as Extract<ServerMessage, { type: 'hello' }>).clientId;
    // A guest's question never reaches the model.
    await post(app, '/api/chat', { q: 'brain: which framework?', clientId });
    await socket.until((m) => m.type === 'chat' && m.role === 'brain');
    await post(app, '/api/chat', { q: 'brain: why did my build fail?', clientId }, me.cookie);

    const call = await model.nextCall();
    expect(call.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(call.body).toMatchObject({ model: 'llama-test', stream: true });
    const [system, user] = call.body.messages!;
    expect(user).toEqual({ role: 'user', content: 'why did my build fail?' });
    expect(system!.role).toBe('system');
    expect(system!.content).toContain('Project: shop');
    expect(system!.content).toContain('framework: vite');
    expect(system!.content).toContain('- build: vite build');
    expect(system!.content).toContain('Cause: src/App.tsx imports canvas-confetti');
    expect(system!.content).toContain('- the deploy target: fly.io');
    expect(system!.content.length).toBeLessThan(7_000);

    const brainChats = () =>
      socket.messages.filter(
        (m): m is Chat => m.type === 'chat' && m.role === 'brain' && m.replyId !== undefined,
      );
    call.write('It failed because ');
    const first = (await socket.until(
      (m) => m.type === 'chat' && m.role === 'brain' && m.replyId !== undefined,
    )) as Chat;
    expect(first).toMatchObject({ chat: 'It failed because ', final: false });
    call.write('canvas-confetti is not declared.');
    call.end();
    const last = (await socket.until((m) => m.type === 'chat' && m.final === true)) as Chat;
    // The model quoted none of the records it was given: they are named after its answer.
    expect(last).toMatchObject({
      role: 'brain',
      replyId: first.replyId,
      chat: expect.stringMatching(
        /^It failed because canvas-confetti is not declared\.\n\(From Forge's records: b\d+-[0-9a-f]+, src\/App\.tsx:1:22\.\)$/,
      ),
    });
    expect(brainChats().every((m) => m.replyId === first.replyId && last.chat.startsWith(m.chat))).toBe(true);
    expect((await bot(app, 'BrainBot')).lastJob).toMatchObject({ summary: 'answered with llama-test' });

    // The handshake answers with the model too (whole, over HTTP).
    const answer = me.say('what does the build command do?');
    const second = await model.nextCall();
    expect(second.body.messages!.at(-1)).toEqual({
      role: 'user',
      content: 'what does the build command do?',
    });
    second.write('It runs vite build.');
    second.end();
    expect(await answer).toEqual({
      reply: 'It runs vite build.',
      authenticated: true,
      sessionExpired: false,
      certainty: 'known',
    });

    expect(app.logLines().some((l) => l.msg === 'model request')).toBe(true);
    expect(JSON.stringify(app.logLines())).not.toContain(KEY);
  });

  it('answers with the built-in engine, saying so, when the model is unreachable', async () => {
    const model = await startFakeModelServer();
    const url = model.url;
    await model.close();
    const { app } = await appWithClock({
      config: { brain: { provider: { url, model: 'gone', apiKey: KEY }, sessionMinutes: 5 } },
    });
    seedFailedProject(app);
    await setPhrases(app);
    const me = brainClient(app);
    await me.authenticate();
    expect((await me.status()).sessionTimeRemaining).toBe(5 * MINUTE);
    const reply = (await me.say('which framework is it?')).reply;
    expect(reply).toContain('shop is a site built to static files: framework vite, package manager npm.');
    expect(reply).toContain(
      `(The language model was unreachable: Cannot reach the model at ${url}: connection refused (is the model server running?). This is Forge's built-in answer.)`,
    );
    expect((await bot(app, 'BrainBot')).lastJob).toMatchObject({
      summary: "described the project's blueprint (model unreachable)",
    });
    expect(JSON.stringify(app.logLines())).not.toContain(KEY);
  });
});
