import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import {
  CliResult,
  errorBody,
  type Diagnosis,
  type ErrorCode,
  type FixResult,
  type MemoryCell,
  type Repair,
  type ScanReport,
} from '@forge/shared';
import { at, StandIn } from '@forge/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitOf, FORGE_BIN, Sandbox, type RunResult } from './helpers.ts';

// The assistants' commands (forge fix, scan, chat, brain, memory, generate) of the spawned, built
// forge against the stand-in daemon: exact answers and timelines (a streamed reply, a reply that
// never comes, a session cookie) that the real daemon cannot be made to give on demand. The real
// daemon end to end: assistants-daemon.test.ts.

let sandbox: Sandbox;
let standIn: StandIn;
/** Requests the added routes saw: method, path, JSON body, Cookie header. */
let seen: Array<{ method: string; path: string; body: unknown; cookie: string | undefined }>;

beforeEach(async () => {
  sandbox = await Sandbox.create();
  standIn = await StandIn.start();
  seen = [];
});
afterEach(async () => {
  await sandbox.dispose();
  await standIn.close();
});

const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  sandbox.run(['--url', standIn.url, ...args], env);

/** forge with `input` on its stdin (a pipe, not a terminal). */
function runWithStdin(args: string[], input: string): Promise<RunResult> {
  const child = spawn(process.execPath, [FORGE_BIN, '--url', standIn.url, ...args], {
    cwd: sandbox.cwd,
    env: sandbox.env(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdin.end(input);
  return exitOf(child).then((code) => ({ code, stdout, stderr }));
}

/** util-linux `script`: runs forge on a pseudo-terminal, as a person at a terminal would. */
const HAS_SCRIPT = spawnSync('script', ['-qec', 'true', '/dev/null']).status === 0;

/**
 * forge on a terminal (stdin, stdout and stderr a pty); `answer(output)` is called on every chunk
 * with everything it printed so far, and returns what to type (or nothing).
 */
function runOnTerminal(args: string[], answer: (output: string) => string | undefined) {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, FORGE_BIN, '--url', standIn.url, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: sandbox.cwd,
    env: sandbox.env({ TERM: 'xterm' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    const keys = answer(output);
    if (keys !== undefined) child.stdin.write(keys);
  });
  return {
    output: () => output,
    exit: () => exitOf(child).finally(() => child.stdin.destroy()),
  };
}

// eslint-disable-next-line no-control-regex
const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : undefined;
}

function send(res: ServerResponse, value: unknown, status = 200, headers: Record<string, string> = {}): true {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
  return true;
}

const fail = (res: ServerResponse, code: ErrorCode, status: number, message?: string) =>
  send(res, errorBody(code, message), status);

/**
 * Adds a route: `method path` (`:x` matches one segment) answered by `answer`, which gets the
 * segments, the JSON body and the request; every request it takes is in `seen`.
 */
function route(
  method: string,
  pattern: string,
  answer: (ctx: { params: string[]; body: unknown; req: IncomingMessage; res: ServerResponse }) => unknown,
): void {
  const regex = new RegExp(`^${pattern.replace(/:[a-z]+/gi, '([^/]+)')}$`);
  standIn.routes.push(async (req, res, url) => {
    const m = regex.exec(url.pathname);
    if (req.method !== method || !m) return false;
    const body = await readJson(req);
    seen.push({ method, path: url.pathname, body, cookie: req.headers.cookie });
    await answer({ params: m.slice(1).map(decodeURIComponent), body, req, res });
    return true;
  });
}

const MISSING: Diagnosis = {
  code: 'MISSING_PACKAGE',
  summary: 'src/main.ts imports canvas-confetti, which package.json does not declare.',
  file: 'src/main.ts',
  line: 2,
  column: 22,
  suggestion: 'Add canvas-confetti to the dependencies.',
  subjects: ['canvas-confetti'],
  repair: 'ADD_MISSING_PACKAGES',
};

const DIFF = [
  '--- a/package.json',
  '+++ b/package.json',
  '@@ -3,3 +3,4 @@',
  '   "dependencies": {',
  '-    "react": "^18.3.1"',
  '+    "react": "^18.3.1",',
  '+    "canvas-confetti": "^1.9.3"',
  '   }',
].join('\n');

const repair = (status: Repair['status'], buildId: string, summary: string): Repair => ({
  id: 'r_1',
  code: 'ADD_MISSING_PACKAGES',
  summary,
  files: ['package.json'],
  status,
  diff: DIFF,
  at: at(0),
  buildId,
});

/** A failed build of `site` with ScanBot's diagnosis and a proposed repair (autoRepair off). */
function failedBuild(extra: { diagnosis?: Diagnosis | null; repairs?: Repair[] } = {}) {
  const build = standIn.addBuild('site');
  standIn.finish(build.id, 'failed');
  Object.assign(standIn.builds.get(build.id)!, {
    diagnosis: MISSING,
    repairs: [repair('proposed', build.id, 'add canvas-confetti@^1.9.3 to package.json')],
    ...extra,
  });
  return build.id;
}

/** POST /api/builds/:id/fix as RepairBot answers it: the repair applied, a new build started. */
function fixRoute() {
  route('POST', '/api/builds/:id/fix', ({ params, res }) => {
    const [id] = params;
    if (!standIn.builds.has(id!)) return fail(res, 'BUILD_NOT_FOUND', 404);
    const applied = repair('applied', id!, 'RepairBot added canvas-confetti@^1.9.3 to package.json');
    const next = standIn.addBuild('site', { repairs: [applied] });
    const result: FixResult = {
      repairs: [applied],
      buildId: next.id,
      message: `RepairBot applied 1 repair; building again (build ${next.id}).`,
    };
    return send(res, result);
  });
}

describe('forge fix', () => {
  it("applies the newest failed build's proposed repair: each repair with its diff, then the new build", async () => {
    failedBuild();
    fixRoute();
    const { code, stdout, stderr } = await run(['fix']);
    expect(code, stderr).toBe(0);
    expect(seen).toEqual([{ method: 'POST', path: '/api/builds/b1/fix', body: {}, cookie: undefined }]);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(
      'RepairBot added canvas-confetti@^1.9.3 to package.json  [ADD_MISSING_PACKAGES, r_1] applied',
    );
    expect(lines[1]).toBe('  files: package.json');
    expect(lines.slice(2, 10)).toEqual(DIFF.split('\n').map((l) => `  ${l}`));
    // Not a terminal: no colours.
    expect(stdout).not.toContain('\u001b');
    expect(stderr).toContain('Build b2 of site started with the repairs (fixing build b1).');
    expect(stderr).toContain('forge logs -f b2');
    expect(stderr).toContain('forge fix --undo');
  });

  it('--wait --json follows the new build like forge build --wait and prints its result', async () => {
    const failed = failedBuild();
    fixRoute();
    const child = sandbox.spawn(['--url', standIn.url, 'fix', failed, '--wait', '--json']);
    let stdout = '';
    child.stdout?.on('data', (c: string) => (stdout += c));
    await expect.poll(() => standIn.builds.has('b2'), { timeout: 20_000 }).toBe(true);
    standIn.stage('b2', 'build-start');
    standIn.stage('b2', 'build-success');
    standIn.finish('b2', 'succeeded', { previewUrl: 'http://127.0.0.1:9/' });
    expect(await exitOf(child)).toBe(0);
    const result = CliResult.parse(JSON.parse(stdout));
    expect(result).toMatchObject({
      buildId: 'b2',
      status: 'succeeded',
      repairs: [{ id: 'r_1', code: 'ADD_MISSING_PACKAGES', status: 'applied', files: ['package.json'] }],
    });
  });

  it('--wait exits by how the new build ended (1 when it failed again), with the diagnosis in the summary', async () => {
    failedBuild();
    fixRoute();
    const child = sandbox.spawn(['--url', standIn.url, 'fix', '--wait']);
    let stderr = '';
    child.stderr?.on('data', (c: string) => (stderr += c));
    await expect.poll(() => standIn.builds.has('b2'), { timeout: 20_000 }).toBe(true);
    standIn.stage('b2', 'build-start');
    standIn.finish('b2', 'failed');
    Object.assign(standIn.builds.get('b2')!, { diagnosis: { ...MISSING, repair: undefined } });
    expect(await exitOf(child)).toBe(1);
    expect(stderr).toContain('Build failed: site, build b2');
    expect(stderr).toMatch(/^ {2}diagnosis {2}src\/main\.ts imports canvas-confetti.+\[MISSING_PACKAGE\]$/m);
    expect(stderr).toMatch(/^ {2}at {9}src\/main\.ts:2:22$/m);
    expect(stderr).toMatch(/^ {2}repaired {3}RepairBot added canvas-confetti@\^1\.9\.3 to package\.json$/m);
  });

  it('says there is nothing to fix (exit 1, nothing sent) when the newest build succeeded', async () => {
    const build = standIn.addBuild('site');
    standIn.finish(build.id, 'succeeded');
    fixRoute();
    const { code, stderr } = await run(['fix', '--project', 'site']);
    expect(code).toBe(1);
    expect(stderr).toContain(`error: Nothing to fix: build ${build.id} of site succeeded.`);
    expect(seen).toEqual([]);
  });

  it('without a repair to make, shows the diagnosis to act on by hand', async () => {
    failedBuild({
      diagnosis: {
        code: 'SYNTAX_ERROR',
        summary: 'Unexpected token in src/App.tsx.',
        file: 'src/App.tsx',
        line: 12,
      },
      repairs: [],
    });
    fixRoute();
    const { code, stderr } = await run(['fix']);
    expect(code).toBe(1);
    expect(stderr).toContain('error: Nothing to fix: RepairBot has no safe repair for build b1.');
    expect(stderr).toContain('  diagnosis  Unexpected token in src/App.tsx. [SYNTAX_ERROR]');
    expect(stderr).toContain('  at         src/App.tsx:12');
    expect(seen).toEqual([]);
  });

  it("an unknown build is the daemon's clear error", async () => {
    const { code, stderr } = await run(['fix', 'b404']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/error: .*\[BUILD_NOT_FOUND, HTTP 404\]/);
  });

  it('--undo restores the files of the newest applied repairs (or of one repair)', async () => {
    standIn.addBuild('site');
    route('POST', '/api/projects/:name/repairs/undo', ({ params, res }) =>
      send(res, {
        restored: [repair('undone', 'b1', 'RepairBot added canvas-confetti@^1.9.3 to package.json')],
        files: ['package.json'],
        message: `Restored 1 file of ${params[0]}.`,
      }),
    );
    const undo = await run(['fix', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout.split('\n')[0]).toBe('restored  package.json');
    expect(undo.stderr).toContain('Restored 1 file of site.');
    const one = await run(['fix', '--undo', 'r_1', '--project', 'site', '--json']);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ files: ['package.json'] });
    expect(seen.map((s) => s.body)).toEqual([{}, { id: 'r_1' }]);
    expect(seen[0]!.path).toBe('/api/projects/site/repairs/undo');
  });
});

const REPORT: ScanReport = {
  projectName: 'site',
  scannedAt: at(0),
  durationMs: 420,
  files: 12,
  typeChecked: false,
  issues: [
    {
      kind: 'undeclared-import',
      severity: 'error',
      summary: 'canvas-confetti is imported but not declared in package.json.',
      file: 'src/main.ts',
      line: 2,
      suggestion: 'forge fix adds it.',
    },
    {
      kind: 'committed-secret',
      severity: 'warn',
      summary: '.env holds API_KEY (value not shown).',
      file: '.env',
    },
    { kind: 'oversized-file', severity: 'info', summary: 'public/video.mp4 is 31 MB.' },
  ],
};

describe('forge scan', () => {
  it('groups the findings by severity with file:line, and exits 1 when one is an error', async () => {
    route('GET', '/api/projects/:name/scan', ({ params, res }) =>
      send(res, { ...REPORT, projectName: params[0] }),
    );
    const { code, stdout, stderr } = await run(['scan', 'site']);
    expect(code).toBe(1);
    expect(stdout.split('\n')).toEqual([
      'Scan of site: 12 files, types not checked (install the dependencies first), in 420ms',
      '',
      'Errors (1)',
      '  src/main.ts:2  canvas-confetti is imported but not declared in package.json. [undeclared-import]',
      '    → forge fix adds it.',
      '',
      'Warnings (1)',
      '  .env  .env holds API_KEY (value not shown). [committed-secret]',
      '',
      'Info (1)',
      '  public/video.mp4 is 31 MB. [oversized-file]',
      '',
    ]);
    expect(stderr).toContain('1 error, 1 warning, 1 info');
    const json = await run(['scan', 'site', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual(REPORT);
  });

  it('exits 0 with warnings only, and says when there is nothing', async () => {
    let issues = REPORT.issues.slice(1);
    route('GET', '/api/projects/:name/scan', ({ res }) =>
      send(res, { ...REPORT, typeChecked: true, issues }),
    );
    const warned = await run(['scan']); // the most recently updated project
    expect(warned.code).toBe(0);
    expect(seen[0]!.path).toBe('/api/projects/site/scan');
    issues = [];
    const clean = await run(['scan', 'site']);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('Scan of site: 12 files, types checked, in 420ms\nNo issues found.');
  });
});

describe('forge chat', () => {
  /** POST /api/chat answered { ok }, then the messages `replies` gives, over /ws. */
  function chatRoute(replies: (q: string) => Array<Record<string, unknown>>) {
    route('POST', '/api/chat', ({ body, res }) => {
      send(res, { ok: true });
      const q = (body as { q: string }).q;
      standIn.broadcast({ type: 'chat', chat: q, role: 'user' });
      for (const reply of replies(q))
        standIn.broadcast({ type: 'chat', role: 'forge', chat: '', ...reply } as never);
    });
  }

  it('prints the reply after who speaks, and a streamed reply once, whole, when not on a terminal', async () => {
    chatRoute(() => [
      { role: 'brain', chat: 'Hello', replyId: 'x1', final: false },
      { role: 'brain', chat: 'Hello there,', replyId: 'x1', final: false },
      { role: 'brain', chat: 'Hello there,\nfriend.', replyId: 'x1', final: true },
      { role: 'forge', chat: 'never printed: the reply was final' },
    ]);
    const { code, stdout, stderr } = await run(['chat', 'brain:', 'hi']);
    expect(code, stderr).toBe(0);
    // With the id the daemon gave this connection: a signed-in brain answer comes back to it alone.
    expect(seen[0]!.body).toEqual({ q: 'brain: hi', clientId: 'c' });
    expect(stdout).toBe('brain: Hello there,\n       friend.\n');
  });

  it.skipIf(!HAS_SCRIPT)('on a terminal, a streamed reply is printed as it comes', async () => {
    let post = () => {};
    route('POST', '/api/chat', ({ res }) => {
      send(res, { ok: true });
      post = () =>
        standIn.broadcast({
          type: 'chat',
          chat: 'Hello there, friend.',
          role: 'brain',
          replyId: 'x1',
          final: true,
        });
      standIn.broadcast({ type: 'chat', chat: 'Hello', role: 'brain', replyId: 'x1', final: false });
    });
    let sent = false;
    const forge = runOnTerminal(['chat', 'brain: hi'], (output) => {
      // The first part is on the screen before the rest is even sent.
      if (!sent && stripAnsi(output).includes('brain: Hello')) {
        sent = true;
        post();
      }
      return undefined;
    });
    expect(await forge.exit()).toBe(0);
    expect(sent).toBe(true);
    expect(stripAnsi(forge.output())).toBe('brain: Hello there, friend.\r\n');
  });

  it('a one-piece reply ends the wait', async () => {
    chatRoute(() => [{ chat: 'Forge 1.0.0, up 5s.' }]);
    const { code, stdout } = await run(['chat', 'status']);
    expect(code).toBe(0);
    expect(stdout).toBe('forge: Forge 1.0.0, up 5s.\n');
  });

  it('gives up after --timeout with a clear message (exit 4), showing what came', async () => {
    chatRoute(() => [{ role: 'brain', chat: 'Thinking about', replyId: 'x2', final: false }]);
    const { code, stdout, stderr } = await run(['chat', 'brain: why?', '--timeout', '1s']);
    expect(code).toBe(4);
    expect(stdout).toBe('brain: Thinking about …(cut off)\n');
    expect(stderr).toContain('error: No final reply within 1s.');
  });
});

describe('forge brain', () => {
  /** A brain that starts a session for a greeting, authenticates it for the code phrase. */
  function brainRoutes() {
    const sessions = new Map<string, boolean>();
    let counter = 0;
    const sessionOf = (req: IncomingMessage) => /forge_brain=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    route('POST', '/api/brain/handshake', ({ body, req, res }) => {
      const { message } = body as { message: string };
      let token = sessionOf(req);
      const headers: Record<string, string> = {};
      if (message === 'expire' && token) {
        sessions.delete(token);
        return send(res, { reply: 'Session expired.', authenticated: false, sessionExpired: true }, 200, {
          'set-cookie': 'forge_brain=; Path=/api; Max-Age=0',
        });
      }
      if (!token || !sessions.has(token)) {
        token = `tok${++counter}`;
        sessions.set(token, false);
        headers['set-cookie'] = `forge_brain=${token}; Path=/api; HttpOnly; SameSite=Strict`;
      }
      if (message === 'open sesame') sessions.set(token, true);
      const authenticated = sessions.get(token)!;
      return send(res, { reply: `You said: ${message}`, authenticated, sessionExpired: false }, 200, headers);
    });
    route('GET', '/api/brain/status', ({ req, res }) => {
      const token = sessionOf(req);
      const authenticated = token !== undefined && sessions.get(token) === true;
      return send(res, {
        authenticated,
        sessionTimeRemaining: authenticated ? 1_799_000 : 0,
        memoryCellCount: 2,
      });
    });
  }

  it('keeps the session cookie between runs, in a file only its owner reads, and sends it back', async () => {
    brainRoutes();
    const hello = await run(['brain', 'hello', 'brain']);
    expect(hello.code, hello.stderr).toBe(0);
    expect(hello.stdout).toBe('You said: hello brain\n');
    const file = join(sandbox.home, 'cli', 'brain-session.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(sandbox.home, 'cli')).mode & 0o777).toBe(0o700);
    // The value is kept, never printed.
    expect(readFileSync(file, 'utf8')).toContain('forge_brain=tok1');
    expect(hello.stdout + hello.stderr).not.toContain('tok1');

    const code = await run(['brain', 'open sesame']);
    expect(code.stderr).toContain('Authentication successful. Session established.');
    expect(seen.map((s) => s.cookie)).toEqual([undefined, 'forge_brain=tok1']);

    const status = await run(['brain', 'status']);
    expect(status.stdout).toBe('Authenticated: 29:59 left in the session, 2 memory cells.\n');
    const json = await run(['brain', 'status', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      authenticated: true,
      sessionTimeRemaining: 1_799_000,
      memoryCellCount: 2,
    });

    // An expired session is said so, and forgotten: the next message starts a new one.
    const expired = await run(['brain', 'expire']);
    expect(expired.stderr).toContain('Session expired. Please re-authenticate.');
    expect(readFileSync(file, 'utf8')).not.toContain('tok1');
    await run(['brain', 'hello']);
    expect(seen.at(-1)!.cookie).toBeUndefined();
  });

  it('status of a guest says how to start a session', async () => {
    brainRoutes();
    const status = await run(['brain', 'status']);
    expect(status.stdout).toBe(
      'Guest (no session): 2 memory cells. Start one with your greeting phrase: forge brain "<greeting>"\n',
    );
  });

  it('set-greeting sends the phrase; set-code reads the code phrase from stdin, never from an argument', async () => {
    const config = { greetingSet: false, codeSet: false };
    route('POST', '/api/brain/greeting', ({ res }) =>
      send(res, { ok: true, ...Object.assign(config, { greetingSet: true }) }),
    );
    route('POST', '/api/brain/code', ({ res }) =>
      send(res, { ok: true, ...Object.assign(config, { codeSet: true }) }),
    );

    const greeting = await run(['brain', 'set-greeting', 'good', 'morning', 'forge']);
    expect(greeting.code).toBe(0);
    expect(greeting.stderr).toContain('Greeting phrase set.');
    expect(greeting.stderr).toContain('forge brain set-code');

    const asArgument = await run(['brain', 'set-code', 'hunter2hunter2']);
    expect(asArgument.code).toBe(2);
    expect(asArgument.stderr).toContain('never given as an argument');

    const short = await runWithStdin(['brain', 'set-code'], 'short\n');
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('The code phrase must be 8 to 200 characters; nothing was changed.');

    const piped = await runWithStdin(['brain', 'set-code'], 'correct horse battery\n');
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toContain('Code phrase set (the daemon keeps only its hash).');
    expect(piped.stdout + piped.stderr).not.toContain('correct horse');
    expect(seen.map((s) => s.body)).toEqual([
      { greeting: 'good morning forge' },
      { code: 'correct horse battery' },
    ]);
  });
});

describe('forge brain set-code on a terminal', () => {
  it.skipIf(!HAS_SCRIPT)('asks twice at a prompt that shows nothing of what is typed', async () => {
    route('POST', '/api/brain/code', ({ res }) => send(res, { ok: true, greetingSet: true, codeSet: true }));
    const typed = (output: string, count: number) => output.split('correct horse').length - 1 >= count;
    let step = 0;
    const forge = runOnTerminal(['brain', 'set-code'], (output) => {
      if (step === 0 && output.includes('Code phrase (not shown): ')) {
        step = 1;
        return 'correct horse\r';
      }
      if (step === 1 && output.includes('Type it again: ')) {
        step = 2;
        return 'correct horse\r';
      }
      return undefined;
    });
    expect(await forge.exit()).toBe(0);
    expect(typed(forge.output(), 1)).toBe(false);
    expect(forge.output()).toContain('Code phrase set (the daemon keeps only its hash).');
    expect(seen.map((s) => s.body)).toEqual([{ code: 'correct horse' }]);
  });

  it.skipIf(!HAS_SCRIPT)('two different phrases change nothing (exit 2)', async () => {
    route('POST', '/api/brain/code', ({ res }) => send(res, { ok: true, greetingSet: true, codeSet: true }));
    let step = 0;
    const forge = runOnTerminal(['brain', 'set-code'], (output) => {
      if (step === 0 && output.includes('Code phrase (not shown): ')) {
        step = 1;
        return 'correct horse\r';
      }
      if (step === 1 && output.includes('Type it again: ')) {
        step = 2;
        return 'correct horsd\r';
      }
      return undefined;
    });
    expect(await forge.exit()).toBe(2);
    expect(forge.output()).toContain('The two code phrases differ; nothing was changed.');
    expect(seen).toEqual([]);
  });
});

describe('forge memory', () => {
  const TOKEN = 'family-token-1';
  /** The memory routes of the stand-in, as the daemon guards them: the family token in X-Forge-Family. */
  function memoryRoutes(cells: Map<string, MemoryCell>) {
    route('POST', '/api/login', ({ body, res }) => {
      const { username, password } = body as { username: string; password: string };
      if (username !== 'mum' || password !== 'correct horse battery') {
        return fail(res, 'INVALID_CREDENTIALS', 401);
      }
      return send(res, { token: TOKEN });
    });
    route('GET', '/api/family/me', ({ req, res }) =>
      req.headers['x-forge-family'] === TOKEN
        ? send(res, { name: 'mum', idleExpiresAt: at(1_800_000), expiresAt: at(43_200_000) })
        : fail(res, 'FAMILY_AUTH_REQUIRED', 401),
    );
    standIn.routes.push((req, res, url) => {
      if (!url.pathname.startsWith('/api/memory-cells') || req.headers['x-forge-family'] === TOKEN) {
        return false;
      }
      return fail(res, 'FAMILY_AUTH_REQUIRED', 401);
    });
    route('GET', '/api/memory-cells', ({ res }) => send(res, [...cells.values()]));
    route('PUT', '/api/memory-cells/:key', ({ params, body, res }) => {
      const cell = { key: params[0]!, value: (body as { value: string }).value, ts: Date.parse(at(5_000)) };
      cells.set(cell.key, cell);
      return send(res, cell);
    });
    route('DELETE', '/api/memory-cells/:key', ({ params, res }) => {
      if (!cells.delete(params[0]!)) {
        return fail(res, 'MEMORY_CELL_NOT_FOUND', 404, `There is no memory cell named "${params[0]}".`);
      }
      return send(res, { ok: true, key: params[0] });
    });
  }

  it('ls, set and rm', async () => {
    const cells = new Map<string, MemoryCell>();
    memoryRoutes(cells);
    const before = await run(['memory', 'ls']);
    expect(before.code).toBe(1);
    expect(before.stderr).toContain('The memory cells need the family login: forge login <name>');
    const login = await runWithStdin(['login', 'mum', '--password-stdin'], 'correct horse battery\n');
    expect(login.code, login.stderr).toBe(0);

    const empty = await run(['memory', 'ls']);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toContain('No memory cells yet.');

    const set = await run(['memory', 'set', 'deploy target', 'the staging box']);
    expect(set.code).toBe(0);
    expect(set.stdout).toBe('deploy target = the staging box\n');
    expect(seen.at(-1)).toMatchObject({
      path: '/api/memory-cells/deploy%20target',
      body: { value: 'the staging box' },
    });
    cells.set('colour', { key: 'colour', value: 'teal', ts: Date.parse(at(1_000)) });

    const ls = await run(['memory', 'ls']);
    const lines = ls.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^KEY +UPDATED +VALUE$/);
    // Newest change first.
    expect(lines[1]).toMatch(/^deploy target {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}the staging box$/);
    expect(lines[2]).toMatch(/^colour +\d{4}-\d\d-\d\d \d\d:\d\d {2}teal$/);
    const json = await run(['memory', 'ls', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([...cells.values()]);

    const rm = await run(['memory', 'rm', 'colour']);
    expect(rm.code).toBe(0);
    expect(rm.stderr).toContain('Forgot colour.');
    const again = await run(['memory', 'rm', 'colour']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      'There is no memory cell named "colour". [MEMORY_CELL_NOT_FOUND, HTTP 404]',
    );
  });

  it('a token the daemon refuses: forgotten, and the same message', async () => {
    memoryRoutes(new Map());
    mkdirSync(join(sandbox.home, 'cli'), { recursive: true, mode: 0o700 });
    const file = join(sandbox.home, 'cli', 'family-session.json');
    writeFileSync(file, JSON.stringify({ [standIn.url]: { token: 'revoked', name: 'mum', at: at(0) } }), {
      mode: 0o600,
    });
    const ls = await run(['memory', 'ls']);
    expect(ls.code).toBe(1);
    expect(ls.stderr).toContain('The memory cells need the family login: forge login <name>');
    expect(ls.stderr).not.toContain('--token');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({});
  });
});

describe('forge generate', () => {
  const CODE = 'export interface UserCardProps {\n  name: string;\n}\n';
  function generateRoute() {
    route('POST', '/api/generate', ({ body, res }) => {
      const { language } = body as { language: string };
      return send(res, {
        code: CODE,
        language,
        fileName: language === 'javascript' ? 'UserCard.jsx' : 'UserCard.tsx',
        source: 'template',
        name: 'UserCard',
        fields: [{ name: 'name', type: 'string', optional: false }],
        ...honesty,
      });
    });
  }
  let honesty: { kind: 'implemented' | 'skeleton'; reason: string } = {
    kind: 'implemented',
    reason: 'a component that shows each of its props',
  };

  it('prints the code on stdout (what it read on stderr)', async () => {
    generateRoute();
    const { code, stdout, stderr } = await run(['generate', 'component', 'UserCard with name: string']);
    expect(code, stderr).toBe(0);
    expect(stdout).toBe(CODE);
    expect(stderr).toContain(
      'CodeGenBot: component UserCard (name: string), typescript, written by the built-in generator.',
    );
    expect(stderr).toContain('Implemented: a component that shows each of its props.');
    expect(seen[0]!.body).toEqual({
      kind: 'component',
      description: 'UserCard with name: string',
      language: 'typescript',
    });
  });

  it('-o writes a file (into a folder under its own name), never over one unless --force', async () => {
    generateRoute();
    const file = join(sandbox.cwd, 'card.tsx');
    const first = await run(['generate', 'component', 'UserCard with name: string', '-o', 'card.tsx']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe(`${file}\n`);
    expect(readFileSync(file, 'utf8')).toBe(CODE);

    writeFileSync(file, 'mine');
    const refused = await run(['generate', 'component', 'UserCard', '-o', 'card.tsx']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${file} already exists; nothing was written.`);
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(file, 'utf8')).toBe('mine');
    expect(seen).toHaveLength(1); // refused before asking the daemon

    const forced = await run(['generate', 'component', 'UserCard', '-o', 'card.tsx', '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(CODE);

    mkdirSync(join(sandbox.cwd, 'src'));
    const js = await run(['generate', 'component', 'UserCard', '--js', '-o', 'src']);
    expect(js.code).toBe(0);
    expect(existsSync(join(sandbox.cwd, 'src', 'UserCard.jsx'))).toBe(true);
    expect(seen.at(-1)!.body).toMatchObject({ language: 'javascript' });
  });

  it('says plainly when the code is a skeleton, and why', async () => {
    honesty = { kind: 'skeleton', reason: 'no recipe of the catalogue does what the description asks' };
    generateRoute();
    const { code, stdout, stderr } = await run(['generate', 'component', 'a drag and drop kanban board']);
    expect(code, stderr).toBe(0);
    expect(stdout).toBe(CODE);
    expect(stderr).toContain(
      'Skeleton, not an implementation: no recipe of the catalogue does what the description asks.',
    );
    const json = await run(['generate', 'component', 'a drag and drop kanban board', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ kind: 'skeleton', reason: honesty.reason });
    honesty = { kind: 'implemented', reason: 'a component that shows each of its props' };
  });

  it('an unknown kind is a usage error', async () => {
    const { code, stderr } = await run(['generate', 'widget', 'x']);
    expect(code).toBe(2);
    expect(stderr).toContain('Allowed choices are component, api, function, schema');
  });
});
