import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from '../exec/index.ts';
import { makeTempDir, nodeScript } from '../../../test/support/temp-files.ts';
import { decodeAddress, listeningSockets, parseListening } from './listening-ports.ts';

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe('decodeAddress', () => {
  it.each([
    ['0100007F', '127.0.0.1', 4],
    ['00000000', '0.0.0.0', 4],
    ['00000000000000000000000000000000', '::', 6],
    ['00000000000000000000000001000000', '::1', 6],
    ['0000000000000000FFFF00000100007F', '127.0.0.1', 4],
    ['B80D0120000000000000000001000000', '2001:db8::1', 6],
  ])('%s → %s', (hex, address, family) => {
    expect(decodeAddress(hex)).toEqual({ address, family });
  });
});

describe('parseListening', () => {
  const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000000000000 100 0 0 10 0
   1: 0100007F:1F91 0100007F:9C40 01 00000000:00000000 00:00000000 00000000  1000        0 4243 1 0000000000000000 20 4 30 10 -1
   2: 00000000:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 5151 1 0000000000000000 100 0 0 10 0
`;
  it('keeps the listening rows of the given inodes only', () => {
    expect(parseListening(TCP, new Set(['4242', '4243']))).toEqual([
      { address: '127.0.0.1', family: 4, port: 8080 },
    ]);
    expect(parseListening(TCP, null).map((s) => s.port)).toEqual([8080, 3000]);
  });
});

describe('listeningSockets', () => {
  it("lists the ports of a process group's processes, not those of other processes", async () => {
    const { dir, cleanup } = await makeTempDir('forge-ports-');
    cleanups.push(cleanup);
    // This test's own listening socket belongs to another process than the group's.
    const mine: Server = createServer().listen(0, '127.0.0.1');
    cleanups.push(() => new Promise((resolve) => mine.close(resolve)));
    await new Promise((resolve) => mine.once('listening', resolve));
    const minePort = (mine.address() as { port: number }).port;

    // A parent that starts a child in a session of its own (setsid): both listen.
    const argv = await nodeScript(
      dir,
      'pair.mjs',
      `import { spawn } from 'node:child_process';
       import net from 'node:net';
       if (process.argv[2] === 'child') {
         net.createServer().listen(0, '::1', function () { console.log('child ' + this.address().port); });
       } else {
         spawn(process.execPath, [process.argv[1], 'child'], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
         net.createServer().listen(0, '0.0.0.0', function () { console.log('parent ' + this.address().port); });
       }`,
    );
    const controller = new AbortController();
    const ports = new Map<string, number>();
    let pgid = 0;
    const exited = runCommand({
      argv,
      cwd: dir,
      timeoutMs: 60_000,
      signal: controller.signal,
      onSpawn: (pid) => (pgid = pid),
      onLine: (line) => {
        const [who, port] = line.text.split(' ');
        ports.set(who!, Number(port));
      },
    });
    cleanups.push(async () => {
      controller.abort('user');
      await exited;
    });
    await expect.poll(() => ports.size, { timeout: 10_000 }).toBe(2);

    await expect
      .poll(async () => await listeningSockets(pgid), { timeout: 5_000 })
      .toEqual(
        [
          { address: '0.0.0.0', family: 4, port: ports.get('parent')! },
          { address: '::1', family: 6, port: ports.get('child')! },
        ].sort((a, b) => a.port - b.port),
      );
    expect((await listeningSockets(pgid))!.map((s) => s.port)).not.toContain(minePort);
  });
});
