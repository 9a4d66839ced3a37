import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { errorBody, FORGE_VERSION } from '@forge/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closedPort, REPO, Sandbox } from './helpers.ts';

// Commands that never need a running daemon: wiring, usage errors, exit codes, refusals.
let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await Sandbox.create();
});
afterEach(async () => {
  await sandbox.dispose();
});

describe('forge --version / --help', () => {
  it('prints the Forge version and exits 0', async () => {
    const { code, stdout, stderr } = await sandbox.run(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(FORGE_VERSION);
    expect(stderr).toBe('');
  });

  it('lists the commands and the exit codes', async () => {
    const { code, stdout } = await sandbox.run(['--help']);
    expect(code).toBe(0);
    for (const command of [
      'upload',
      'build',
      'builds',
      'logs',
      'cancel',
      'plan',
      'preview',
      'download',
      'bots',
      'daemon',
      'open',
      'settings',
      'config',
      'tui',
      'ci',
      'completion',
      'fix',
      'scan',
      'chat',
      'brain',
      'memory',
      'generate',
      'worker',
      'workers',
    ])
      expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(stdout).toMatch(/^ {2}0 +success/m);
    expect(stdout).toMatch(/^ {2}1 +failure/m);
    expect(stdout).toMatch(/^ {2}2 +usage error/m);
    expect(stdout).toMatch(/^ {2}3 +daemon unreachable/m);
    expect(stdout).toMatch(/^ {2}4 +timed out/m);
    expect(stdout).toMatch(/^ {2}5 +cancelled/m);
    expect(stdout).toMatch(/^ {2}6 +upload refused/m);
    expect(stdout).toMatch(/^ {2}130 +stopped with Ctrl\+C/m);
  });

  /** The files a chunk loads before it runs (its static imports, followed), their code, the packages. */
  function staticGraph(chunk: string) {
    const seen = new Set<string>();
    const bare = new Set<string>();
    let code = '';
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      code += text;
      for (const m of text.matchAll(/^import\s+(?:[^'"]*?from\s+)?["']([^"']+)["'];?$/gm)) {
        const spec = m[1]!;
        if (spec.startsWith('.')) visit(join(dirname(file), spec));
        else bare.add(spec);
      }
    };
    visit(join(REPO, 'packages/cli/dist', chunk));
    return { code, packages: [...bare].filter((s) => !isBuiltin(s)) };
  }
  /** The chunk the entry imports when it runs `kind` (read: the read path, cli: the program). */
  const dynamicChunk = (kind: 'read' | 'cli') => {
    const entry = readFileSync(join(REPO, 'packages/cli/dist/forge.js'), 'utf8');
    const chunk = new RegExp(`import\\("\\./(${kind}-[\\w-]+\\.js)"\\)`).exec(entry)?.[1];
    if (!chunk) throw new Error(`dist/forge.js imports no ${kind} chunk`);
    return chunk;
  };

  it('keeps --version light: the entry loads no package, and no zod, before it runs', () => {
    const entry = staticGraph('forge.js');
    expect(entry.packages).toEqual([]);
    expect(entry.code).not.toContain('ZodError');
  });

  it('keeps the read path light: no commander, no zod (the schemas are precomputed), no ws', () => {
    const read = staticGraph(dynamicChunk('read'));
    expect(read.packages).toEqual([]);
    expect(read.code).not.toContain('ZodError');
    expect(read.code).not.toContain('commander.invalidArgument');
    // The program: commander, and still no zod before a command asks for it.
    const program = staticGraph(dynamicChunk('cli'));
    expect(program.packages).toEqual([]);
    expect(program.code).toContain('commander.invalidArgument');
    expect(program.code).not.toContain('ZodError');
  });
});

describe('every command that follows builds documents the exit codes in its help', () => {
  it.each([['upload'], ['build'], ['logs'], ['ci'], ['fix']])('forge %s --help', async (command) => {
    const { code, stdout } = await sandbox.run([command, '--help']);
    expect(code).toBe(0);
    for (const exit of ['0', '1', '2', '3', '4', '5', '6', '130'])
      expect(stdout).toMatch(new RegExp(`^ {2}${exit} +\\w`, 'm'));
  });
});

describe('usage errors exit with 2', () => {
  it.each([
    [['nosuch'], /unknown command 'nosuch'/],
    [['daemon', 'start', '--port', 'abc'], /port.*'abc' is invalid/],
    [['daemon', 'logs', '-n', '-3'], /is invalid|unknown option/],
    [['settings', 'set', 'debugMode'], /missing required argument 'value'/],
    [['settings', 'get', '--nope'], /unknown option '--nope'/],
  ])('forge %j', async (args, message) => {
    const { code, stderr } = await sandbox.run(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('refuses an invalid setting value before contacting (or starting) the daemon', async () => {
    const bad = await sandbox.run(['settings', 'set', 'maxConcurrentBots', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'Invalid value "0" for maxConcurrentBots: expected an integer from 1 to 100.',
    );
    const unknown = await sandbox.run(['settings', 'get', 'colour']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown setting "colour"');
    expect(existsSync(sandbox.stateFile)).toBe(false);
  });
});

describe('an unreachable daemon exits with 3 and says what to run', () => {
  it('under CI=true a daemon that is not running is not started', async () => {
    const { code, stdout, stderr } = await sandbox.run(['settings', 'get'], { CI: 'true' });
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toContain('not running');
    expect(stderr).toContain('forge daemon start');
    expect(stderr).toContain('--start-daemon');
    expect(existsSync(sandbox.stateFile)).toBe(false);
  });

  it('--url to a closed port', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { code, stderr } = await sandbox.run(['--url', url, 'settings', 'get']);
    expect(code).toBe(3);
    expect(stderr).toContain(`Cannot reach the Forge daemon at ${url}`);
    expect(stderr).toMatch(/hint: .*--url/);
    // A daemon elsewhere is never started here.
    expect(existsSync(sandbox.stateFile)).toBe(false);
  });

  it('FORGE_URL and BOT_SERVICE_URL target a daemon elsewhere too', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    for (const name of ['FORGE_URL', 'BOT_SERVICE_URL']) {
      const { code, stderr } = await sandbox.run(['open', '--no-browser'], { [name]: url });
      expect(code).toBe(3);
      expect(stderr).toContain(`Cannot reach the Forge daemon at ${url}`);
    }
    expect(existsSync(sandbox.stateFile)).toBe(false);
  });

  it('daemon status of a daemon never started says stopped (exit 3); stop is a no-op', async () => {
    const status = await sandbox.run(['daemon', 'status', '--json']);
    expect(status.code).toBe(3);
    expect(JSON.parse(status.stdout)).toEqual({
      status: 'stopped',
      home: sandbox.home,
      staleStateFile: null,
    });
    const stop = await sandbox.run(['daemon', 'stop']);
    expect(stop.code).toBe(0);
    expect(stop.stdout.trim()).toBe('Forge is not running');
  });
});

describe('forge config print --local', () => {
  it('--json shows FORGE_HOME and redacts FORGE_TOKEN', async () => {
    const { code, stdout } = await sandbox.run(['config', 'print', '--local', '--json'], {
      FORGE_TOKEN: 's3cret-token',
    });
    expect(code).toBe(0);
    const view = JSON.parse(stdout) as { home: string; accessToken: string | null };
    expect(view.home).toBe(sandbox.home);
    expect(view.accessToken).toBe('***');
    expect(stdout).not.toContain('s3cret-token');
  });

  it('shows the build queue: in-process by default, FORGE_QUEUE_URL with its password hidden', async () => {
    const plain = await sandbox.run(['config', 'print', '--local', '--json']);
    expect((JSON.parse(plain.stdout) as { queue: unknown }).queue).toEqual({ kind: 'in-process', url: null });
    const queued = await sandbox.run(['config', 'print', '--local'], {
      FORGE_QUEUE_URL: 'redis://:s3cret@10.0.0.2:6379',
    });
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.stdout).toMatch(/^queue +bullmq \(redis:\/\/:\*\*\*@10\.0\.0\.2:6379\)$/m);
    expect(queued.stdout).not.toContain('s3cret');
  });

  it('relays an invalid config as exit 1 with the daemon’s message', async () => {
    writeFileSync(join(sandbox.cwd, '.forgerc.json'), JSON.stringify({ port: 'not-a-port' }));
    const { code, stderr } = await sandbox.run(['config', 'print', '--local']);
    expect(code).toBe(1);
    expect(stderr).toContain('.forgerc.json');
    expect(stderr).toContain('port');
  });
});

describe('errors from the daemon', () => {
  let server: Server;
  let url: string;
  beforeEach(async () => {
    // A daemon stand-in: healthy, but every settings call fails the way the real one reports errors.
    server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/health') {
        res.end(JSON.stringify({ ok: true, version: FORGE_VERSION, uptimeMs: 5 }));
      } else if (req.headers.authorization !== 'Bearer right') {
        res.statusCode = 401;
        res.end(JSON.stringify(errorBody('TOKEN_REQUIRED')));
      } else {
        res.statusCode = 500;
        res.end(JSON.stringify(errorBody('INTERNAL')));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("prints the daemon's message, code and hint (no stack) and exits 1", async () => {
    const { code, stdout, stderr } = await sandbox.run(['--url', url, '--token', 'right', 'settings', 'get']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('error: Something went wrong inside Forge. [INTERNAL, HTTP 500]');
    expect(stderr).toContain('hint: See the daemon log: forge daemon logs');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('a missing token says how to pass one', async () => {
    const { code, stderr } = await sandbox.run(['settings', 'get'], { FORGE_URL: url });
    expect(code).toBe(1);
    expect(stderr).toContain('An access token is required. [TOKEN_REQUIRED, HTTP 401]');
    expect(stderr).toContain('--token or FORGE_TOKEN');
  });
});
