import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitOf, Sandbox } from './helpers.ts';

// A daemon whose process lives but which does not answer (hung): every command that needs it says so
// and exits 3, after the 2 s health probe, whether it takes the read path or goes through commander.
let sandbox: Sandbox;
let server: Server;
let sockets: Socket[];
let process_: ChildProcess;
beforeEach(async () => {
  sandbox = await Sandbox.create();
  // Accepts connections and never answers, like a daemon stuck in a loop.
  sockets = [];
  server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  // A live process that looks like a Forge daemon to the CLI (its command line names it).
  process_ = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)', 'forge-daemon-stand-in'], {
    stdio: 'ignore',
  });
  writeFileSync(
    sandbox.stateFile,
    JSON.stringify({
      pid: process_.pid,
      port,
      host: '127.0.0.1',
      url: `http://127.0.0.1:${port}`,
      version: '1.0.0',
      startedAt: new Date().toISOString(),
    }),
  );
});
afterEach(async () => {
  process_.kill('SIGKILL');
  await exitOf(process_);
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await sandbox.dispose();
});

describe('a daemon that does not answer', () => {
  it.each([
    [['builds', '--json']],
    [['status']],
    [['logs', 'b1']],
    [['bots']],
    [['plan', 'site']],
    [['settings', 'get']],
    [['builds', '-n', '3']],
    [['cancel']],
  ])('forge %j: exit 3, "does not answer", with the way out', async (args) => {
    const { code, stdout, stderr } = await sandbox.run(args);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `error: The Forge daemon (pid ${process_.pid}) does not answer at http://127.0.0.1:${(server.address() as { port: number }).port}.\n` +
        'hint: Restart it: `forge daemon stop`, then `forge daemon start`.\n',
    );
  });
});
