import { createServer, type Server } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxAvailable } from '../exec/index.ts';
import {
  eventually,
  isRunning,
  killQuietly,
  makeTempDir,
  nodeScript,
} from '../../../test/support/temp-files.ts';
import { findFreePort, ServerAppStartError, startServerApp, type ServerApp } from './server-app.ts';
import { HELLO_APP, rawRequest, refusesConnections } from '../../../test/support/preview-apps.ts';

let dir: string;
let cleanup: () => Promise<void>;
const pids: number[] = [];
const apps: ServerApp[] = [];
const servers: Server[] = [];
const canSandbox = await sandboxAvailable();

const pidsOf = (line: { text: string }) => {
  const pid = /^pid=(\d+)$/.exec(line.text)?.[1];
  if (pid) pids.push(Number(pid));
};

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-server-app-'));
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.stop()));
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  killQuietly(pids.splice(0));
  await cleanup();
});

/** A server app that ignores PORT: it listens on APP_PORT at APP_HOST, and prints `say` once it does. */
const IGNORES_PORT = `import http from 'node:http';
const port = Number(process.env.APP_PORT);
http
  .createServer((req, res) => res.end('here on ' + port + ', given ' + process.env.PORT))
  .listen(port, process.env.APP_HOST ?? '127.0.0.1', () => {
    if (process.env.SAY) console.log(process.env.SAY.replace('%p', port));
  });
`;

describe('startServerApp', () => {
  it('runs the app with PORT and HOST, resolves once it answers, and stop() ends it', async () => {
    const argv = await nodeScript(dir, 'app.mjs', HELLO_APP);
    const lines: string[] = [];
    const app = await startServerApp({
      argv,
      cwd: dir,
      env: { GREETING: 'hi' },
      onLine: (line) => {
        lines.push(line.text);
        pidsOf(line);
      },
    });
    apps.push(app);
    expect(app.url).toBe(`http://127.0.0.1:${app.port}`);
    expect(app.found).toBeUndefined();
    const res = await rawRequest(app.url, '/');
    expect(res.body).toBe(`hello from ${app.port} hi`);
    expect(await isRunning(app.pid)).toBe(true);

    await app.stop();
    expect(await isRunning(app.pid)).toBe(false);
    expect(await refusesConnections(app.url)).toBe(true);
    expect((await app.exited).outcome).toBe('cancelled');
    expect(lines).toContain(`listening on ${app.port}`);
  });

  it('replaces {PORT} in the start command by the port it gives', async () => {
    const argv = await nodeScript(
      dir,
      'args.mjs',
      `import http from 'node:http';
       const port = Number(process.argv[3].replace('--port=', ''));
       console.log('argv ' + process.argv.slice(2).join(' '));
       http.createServer((req, res) => res.end('ok')).listen(port, '127.0.0.1');`,
    );
    const lines: string[] = [];
    const app = await startServerApp({
      argv: [...argv, 'preview', '--port={PORT}'],
      cwd: dir,
      onLine: (line) => lines.push(line.text),
    });
    apps.push(app);
    expect(app.found).toBeUndefined();
    expect(lines).toContain(`argv preview --port=${app.port}`);
  });

  it('finds an app that ignores PORT by its listening socket and previews it there', async () => {
    const elsewhere = await findFreePort();
    const argv = await nodeScript(dir, 'ignores.mjs', IGNORES_PORT);
    const app = await startServerApp({ argv, cwd: dir, env: { APP_PORT: String(elsewhere) } });
    apps.push(app);
    expect(app.port).toBe(elsewhere);
    expect(app.url).toBe(`http://127.0.0.1:${elsewhere}`);
    expect(app.found).toMatchObject({ by: 'socket' });
    const given = app.found!.givenPort;
    expect(given).not.toBe(elsewhere);
    expect(app.found!.detail).toBe(
      `listening on ${elsewhere}, not on PORT ${given}: found by its listening socket`,
    );
    expect((await rawRequest(app.url, '/')).body).toBe(`here on ${elsewhere}, given ${given}`);
  });

  it('finds it by the URL it prints (an IPv6 loopback one here)', async () => {
    const elsewhere = await findFreePort();
    const argv = await nodeScript(dir, 'prints.mjs', IGNORES_PORT);
    const app = await startServerApp({
      argv,
      cwd: dir,
      env: {
        APP_PORT: String(elsewhere),
        APP_HOST: '::1',
        SAY: '  \u001b[32m➜\u001b[39m  Local:   http://[::1]:%p/',
      },
    });
    apps.push(app);
    expect(app.url).toBe(`http://[::1]:${elsewhere}`);
    expect(app.found).toMatchObject({ by: 'printed', printed: `http://[::1]:${elsewhere}/` });
    expect(app.found!.detail).toBe(
      `listening on ${elsewhere}, not on PORT ${app.found!.givenPort}: found by the URL it printed (http://[::1]:${elsewhere}/)`,
    );
    expect((await rawRequest(app.url, '/')).body).toMatch(/^here on/);
  });

  it('never takes a port the app does not own, whatever it prints', async () => {
    // Another program (this test) listens on a port; the app claims it and listens nowhere.
    const other = createServer().listen(0, '127.0.0.1');
    servers.push(other);
    await new Promise((resolve) => other.once('listening', resolve));
    const claimed = (other.address() as { port: number }).port;
    const argv = await nodeScript(
      dir,
      'liar.mjs',
      `console.log('pid=' + process.pid); console.log('Listening on port ${claimed}'); setInterval(() => {}, 1000);`,
    );
    const error = await startServerApp({ argv, cwd: dir, readyTimeoutMs: 2_500, onLine: pidsOf }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerAppStartError);
    expect((error as Error).message).toMatch(/did not listen on a port within 2\.5 s/);
  });

  it('rejects with a one-sentence reason and the output as evidence when the app exits before listening', async () => {
    const argv = await nodeScript(
      dir,
      'crash.mjs',
      `console.log('starting'); console.error('Error: DATABASE_URL is not set'); process.exit(2);`,
    );
    const error = await startServerApp({ argv, cwd: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerAppStartError);
    const startError = error as ServerAppStartError;
    expect(startError.message).toMatch(
      /^The app exited with code 2 before it listened on a port \(it was given PORT=\d+\)\.$/,
    );
    expect(startError.evidence).toEqual({
      firstLine: 'Error: DATABASE_URL is not set',
      tail: ['starting', 'Error: DATABASE_URL is not set'],
    });
    expect(startError.result?.exitCode).toBe(2);
  });

  it('reports a start command that cannot run', async () => {
    await expect(startServerApp({ argv: ['forge-no-such-server-binary'], cwd: dir })).rejects.toThrow(
      /^Could not start "forge-no-such-server-binary"/,
    );
  });

  it('stops an app that never listens once the ready timeout passes, keeping its last 20 lines apart', async () => {
    const argv = await nodeScript(
      dir,
      'mute.mjs',
      `console.log('pid=' + process.pid);
       for (let i = 1; i <= 30; i++) console.log('warming up ' + i);
       setInterval(() => {}, 1000);`,
    );
    const started = Date.now();
    const error = await startServerApp({ argv, cwd: dir, readyTimeoutMs: 1_000, onLine: pidsOf }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerAppStartError);
    const startError = error as ServerAppStartError;
    expect(startError.message).toMatch(
      /^The app did not listen on a port within 1 s \(it was given PORT=\d+\); it was stopped\.$/,
    );
    expect(startError.tail).toEqual(Array.from({ length: 20 }, (_, i) => `warming up ${i + 11}`));
    expect(startError.evidence.firstLine).toBeUndefined();
    expect(startError.result?.outcome).toBe('timed-out');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(pids).toHaveLength(1);
    expect(await isRunning(pids[0]!)).toBe(false);
  });

  it('stops the app when the signal aborts before it is ready', async () => {
    const argv = await nodeScript(
      dir,
      'slow.mjs',
      `console.log('pid=' + process.pid); setInterval(() => {}, 1000);`,
    );
    const controller = new AbortController();
    const starting = startServerApp({
      argv,
      cwd: dir,
      signal: controller.signal,
      onLine: (line) => {
        pidsOf(line);
        if (line.text.startsWith('pid=')) controller.abort(new Error('build cancelled'));
      },
    });
    await expect(starting).rejects.toThrow('build cancelled');
    expect(pids).toHaveLength(1);
    expect(await eventually(async () => !(await isRunning(pids[0]!)))).toBe(true);
  });

  it.runIf(canSandbox)(
    'finds the port of an app inside the sandbox (its own pid namespace, the same network)',
    async () => {
      const elsewhere = await findFreePort();
      const argv = await nodeScript(dir, 'boxed.mjs', IGNORES_PORT);
      const app = await startServerApp({
        argv,
        cwd: dir,
        sandbox: true,
        env: { APP_PORT: String(elsewhere) },
      });
      apps.push(app);
      expect(app.port).toBe(elsewhere);
      expect(app.found?.by).toBe('socket');
      expect((await rawRequest(app.url, '/')).body).toMatch(`here on ${elsewhere}`);
    },
  );
});
