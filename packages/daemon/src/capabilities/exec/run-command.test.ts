import { formatBytes } from '@forge/shared';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUILD_NICENESS } from './resource-limits.ts';
import { runCommand, type OutputLine, type RunCommandOptions } from './run-command.ts';
import {
  eventually,
  isRunning,
  killQuietly,
  makeTempDir,
  nodeScript,
} from '../../../test/support/temp-files.ts';

let dir: string;
let cleanup: () => Promise<void>;
/** Pids a test saw; killed afterwards in case an assertion failed before the runner did its job. */
const seenPids: number[] = [];

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(async () => {
  killQuietly(seenPids.splice(0));
  vi.unstubAllEnvs();
  await cleanup();
});

async function run(argv: string[], options: Partial<RunCommandOptions> = {}) {
  const lines: OutputLine[] = [];
  const result = await runCommand({
    argv,
    cwd: dir,
    timeoutMs: 10_000,
    onLine: (line) => {
      lines.push(line);
      const pid = /^pid=(\d+)$/.exec(line.text)?.[1];
      if (pid) seenPids.push(Number(pid));
    },
    ...options,
  });
  const text = (stream: OutputLine['stream']) => lines.filter((l) => l.stream === stream).map((l) => l.text);
  const pidsPrinted = lines.flatMap((l) => /^pid=(\d+)$/.exec(l.text)?.[1] ?? []).map(Number);
  return { result, lines, stdout: text('stdout'), stderr: text('stderr'), pidsPrinted };
}

const gone = (pid: number) => eventually(async () => !(await isRunning(pid)));

describe('runCommand: outcomes', () => {
  it('runs a command to success and delivers each stream in order', async () => {
    const argv = await nodeScript(
      dir,
      'ok.mjs',
      `for (let i = 1; i <= 3; i++) { console.log('out ' + i); console.error('err ' + i); }
       process.stdout.write('crlf\\r\\nno newline at the end');`,
    );
    const { result, stdout, stderr } = await run(argv);
    expect(result).toMatchObject({ outcome: 'succeeded', exitCode: 0, signal: null, sandboxed: false });
    expect(result.cancelReason).toBeUndefined();
    expect(stdout).toEqual(['out 1', 'out 2', 'out 3', 'crlf', 'no newline at the end']);
    expect(stderr).toEqual(['err 1', 'err 2', 'err 3']);
    expect(result.outputBytes).toBe(6 * 6 + 'crlf\r\nno newline at the end'.length);
    expect(result.droppedBytes).toBe(0);
  });

  it('runs in cwd with stdin closed', async () => {
    const argv = await nodeScript(
      dir,
      'cwd.mjs',
      `import { readFileSync } from 'node:fs';
       console.log(process.cwd());
       console.log('stdin:' + JSON.stringify(readFileSync(0, 'utf8')));`,
    );
    const { stdout } = await run(argv);
    expect(stdout).toEqual([dir, 'stdin:""']);
  });

  it('reports a non-zero exit as failed', async () => {
    const argv = await nodeScript(dir, 'fail.mjs', `console.error('boom'); process.exit(3);`);
    const { result, stderr } = await run(argv);
    expect(result).toMatchObject({ outcome: 'failed', exitCode: 3, signal: null });
    expect(stderr).toEqual(['boom']);
  });

  it('reports a program that cannot start as failed, with the reason', async () => {
    const { result, stderr } = await run(['forge-no-such-program-here']);
    expect(result).toMatchObject({ outcome: 'failed', exitCode: null, signal: null });
    expect(result.error).toMatch(/forge-no-such-program-here.*ENOENT/);
    expect(stderr).toEqual([result.error]);
  });

  it('says so when the working directory is missing', async () => {
    const { result } = await run(['true'], { cwd: join(dir, 'missing') });
    expect(result.outcome).toBe('failed');
    expect(result.error).toMatch(/working directory .*missing does not exist/);
  });

  it('stops a hanging command at timeoutMs, and it is gone', async () => {
    const argv = await nodeScript(
      dir,
      'hang.mjs',
      `console.log('pid=' + process.pid); setInterval(() => {}, 1000);`,
    );
    const { result, pidsPrinted } = await run(argv, { timeoutMs: 1_000 });
    expect(result).toMatchObject({
      outcome: 'timed-out',
      cancelReason: 'timeout',
      exitCode: null,
      signal: 'SIGTERM',
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(990);
    expect(result.durationMs).toBeLessThan(4_000);
    expect(await gone(pidsPrinted[0]!)).toBe(true);
  });

  it('cancels through the AbortSignal with the reason given', async () => {
    const argv = await nodeScript(
      dir,
      'hang.mjs',
      `console.log('pid=' + process.pid); setInterval(() => {}, 1000);`,
    );
    const controller = new AbortController();
    const { result, pidsPrinted } = await run(argv, {
      signal: controller.signal,
      onLine: (line) => {
        seenPids.push(Number(line.text.slice(4)));
        controller.abort('superseded');
      },
    });
    expect(result).toMatchObject({ outcome: 'cancelled', cancelReason: 'superseded', signal: 'SIGTERM' });
    expect(pidsPrinted).toEqual([]); // onLine was replaced; the pid went to seenPids
    expect(await gone(seenPids[0]!)).toBe(true);
  });

  it('treats an abort without a known reason as a user cancel', async () => {
    const argv = await nodeScript(dir, 'hang.mjs', `console.log('up'); setInterval(() => {}, 1000);`);
    const controller = new AbortController();
    const { result } = await run(argv, { signal: controller.signal, onLine: () => controller.abort() });
    expect(result).toMatchObject({ outcome: 'cancelled', cancelReason: 'user' });
  });

  it('does not start a command whose signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort('shutdown');
    const onSpawn = vi.fn();
    const argv = await nodeScript(dir, 'never.mjs', `require('fs').writeFileSync('ran', '')`);
    const { result } = await run(argv, { signal: controller.signal, onSpawn });
    expect(result).toMatchObject({ outcome: 'cancelled', cancelReason: 'shutdown', exitCode: null });
    expect(onSpawn).not.toHaveBeenCalled();
    expect(existsSync(join(dir, 'ran'))).toBe(false);
  });

  it('SIGKILLs a command that ignores SIGTERM once the grace is over', async () => {
    const argv = await nodeScript(
      dir,
      'stubborn.mjs',
      `process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
       console.log('pid=' + process.pid);
       setInterval(() => {}, 1000);`,
    );
    const { result, stdout, pidsPrinted } = await run(argv, { timeoutMs: 500, killGraceMs: 400 });
    expect(stdout).toContain('ignoring SIGTERM');
    expect(result).toMatchObject({ outcome: 'timed-out', signal: 'SIGKILL' });
    expect(result.durationMs).toBeGreaterThanOrEqual(880);
    expect(await gone(pidsPrinted[0]!)).toBe(true);
  });

  it('rejects when onLine throws, after killing the command', async () => {
    const argv = await nodeScript(
      dir,
      'hang.mjs',
      `console.log('pid=' + process.pid); setInterval(() => {}, 1000);`,
    );
    let pid = 0;
    await expect(
      runCommand({
        argv,
        cwd: dir,
        timeoutMs: 10_000,
        onLine: (line) => {
          pid = Number(line.text.slice(4));
          seenPids.push(pid);
          throw new Error('log store is full');
        },
      }),
    ).rejects.toThrow('log store is full');
    expect(await gone(pid)).toBe(true);
  });
});

describe('runCommand: priority', () => {
  it('runs the command and its children below the daemon in CPU priority', async () => {
    // The 19th field of /proc/<pid>/stat is the niceness; a grandchild inherits it.
    const { result, stdout } = await run(['sh', '-c', 'sh -c \'cut -d" " -f19 /proc/$$/stat\'']);
    expect(result.outcome).toBe('succeeded');
    expect(stdout).toEqual([String(os.getPriority() + BUILD_NICENESS)]);
  });
});

describe('runCommand: the whole process tree goes', () => {
  // `sleep &` stays in the command's process group; the shell prints its pid.
  const withGrandchild = (tail: string) => ['sh', '-c', `sleep 60 & echo pid=$!; echo pid=$$; ${tail}`];

  it('after a normal exit, without waiting for the grandchild', async () => {
    const { result, pidsPrinted } = await run(withGrandchild('exit 0'));
    expect(result.outcome).toBe('succeeded');
    expect(result.durationMs).toBeLessThan(2_000);
    expect(pidsPrinted).toHaveLength(2);
    for (const pid of pidsPrinted) expect(await gone(pid), `pid ${pid}`).toBe(true);
  });

  it('after a normal exit, also a background server that closed its output', async () => {
    const argv = ['sh', '-c', 'sleep 60 </dev/null >/dev/null 2>&1 & echo pid=$!'];
    const { result, pidsPrinted } = await run(argv);
    expect(result.outcome).toBe('succeeded');
    expect(await gone(pidsPrinted[0]!)).toBe(true);
  });

  it('after a timeout', async () => {
    const { result, pidsPrinted } = await run(withGrandchild('sleep 60'), { timeoutMs: 1_000 });
    expect(result.outcome).toBe('timed-out');
    expect(pidsPrinted).toHaveLength(2);
    for (const pid of pidsPrinted) expect(await gone(pid), `pid ${pid}`).toBe(true);
  });

  it('after a cancel, even when the grandchild ignores SIGTERM', async () => {
    const controller = new AbortController();
    const argv = ['sh', '-c', `(trap '' TERM; sleep 60) & echo pid=$!; echo ready; sleep 60`];
    const { result, pidsPrinted } = await run(argv, {
      signal: controller.signal,
      killGraceMs: 5_000,
      onLine: (line) => {
        if (line.text.startsWith('pid=')) seenPids.push(Number(line.text.slice(4)));
        if (line.text === 'ready') controller.abort('user');
      },
    });
    expect(result).toMatchObject({ outcome: 'cancelled', cancelReason: 'user' });
    // The main shell died of SIGTERM at once, so the group SIGKILL came well before the grace.
    expect(result.durationMs).toBeLessThan(3_000);
    expect(pidsPrinted).toEqual([]);
    expect(await gone(seenPids[0]!)).toBe(true);
  });

  it('does not hang when a process that left the group (setsid) keeps the output open', async () => {
    // Without the sandbox such an escapee survives (the sandbox's pid namespace catches it).
    const argv = ['sh', '-c', 'setsid sleep 30 & echo pid=$!; exit 0'];
    const { result, pidsPrinted } = await run(argv);
    expect(result.outcome).toBe('succeeded');
    expect(result.durationMs).toBeLessThan(3_000);
    seenPids.push(...pidsPrinted);
  });
});

describe('runCommand: output limits', () => {
  it('truncates a 1 MB single line', async () => {
    const argv = await nodeScript(
      dir,
      'long.mjs',
      `console.log('x'.repeat(1024 * 1024)); console.log('after');`,
    );
    const { result, stdout } = await run(argv);
    expect(stdout).toEqual([`${'x'.repeat(4000)} …[truncated ${1024 * 1024 - 4000} chars]`, 'after']);
    expect(result).toMatchObject({ outcome: 'succeeded', truncatedLines: 1, droppedBytes: 0 });
    expect(result.outputBytes).toBe(1024 * 1024 + 1 + 6);
  });

  it('caps a flood of 200k lines, keeps the command running and the runner memory bounded', async () => {
    // Make gc() available so the memory figures do not depend on when V8 chooses to collect.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // V8 frees Buffer memory on a background thread after a GC, late when the CPU is busy: the
    // lowest of a few samples is what is really held.
    const memory = async () => {
      let lowest = Infinity;
      for (let i = 0; i < 6; i++) {
        gc();
        const usage = process.memoryUsage();
        lowest = Math.min(lowest, usage.heapUsed + usage.arrayBuffers);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return lowest;
    };

    const argv = await nodeScript(
      dir,
      'flood.mjs',
      `import { writeFileSync } from 'node:fs';
       const block = Array.from({ length: 1000 }, (_, i) => 'flood line ' + String(i).padStart(4, '0') + ' ' + '.'.repeat(80)).join('\\n') + '\\n';
       for (let i = 0; i < 200; i++) writeFileSync(1, block); // writes to a pipe block until read
       writeFileSync('flooded', '');
       setInterval(() => {}, 1000);`,
    );
    const maxOutputBytes = 1024 * 1024;
    let deliveredBytes = 0;
    let deliveredLines = 0;
    let lastLine = '';
    const controller = new AbortController();
    const before = await memory();
    const running = runCommand({
      argv,
      cwd: dir,
      timeoutMs: 20_000,
      maxOutputBytes,
      signal: controller.signal,
      onLine: (line) => {
        deliveredLines++;
        deliveredBytes += Buffer.byteLength(line.text) + 1;
        lastLine = line.text;
      },
    });
    expect(await eventually(async () => existsSync(join(dir, 'flooded')), 15_000)).toBe(true);
    // The command has written ~20 MB and is still running; the runner must not be holding it.
    const growth = (await memory()) - before;
    controller.abort('user');
    const result = await running;

    const lineBytes = 'flood line 0000 '.length + 80 + 1;
    const floodBytes = 200 * 1000 * lineBytes;
    expect(result.outputBytes).toBe(floodBytes);
    expect(growth).toBeLessThan(6 * 1024 * 1024);
    expect(result.outcome).toBe('cancelled'); // it ran until we stopped it: the cap does not kill
    expect(deliveredLines).toBeLessThan(200_000);
    expect(deliveredBytes - Buffer.byteLength(lastLine) - 1).toBeLessThanOrEqual(maxOutputBytes);
    expect(lastLine).toBe(
      `…[output limit of 1 MB reached: ${formatBytes(floodBytes - (deliveredLines - 1) * lineBytes)} more not shown]`,
    );
    expect(result.droppedBytes).toBe(floodBytes - (deliveredLines - 1) * lineBytes);
  });
});

describe('runCommand: environment', () => {
  it('passes a scrubbed environment with CI=true and the caller variables', async () => {
    vi.stubEnv('FORGE_TOKEN', 'daemon-token');
    vi.stubEnv('GITHUB_TOKEN', 'ghp_x');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'aws-x');
    const argv = await nodeScript(dir, 'env.mjs', `console.log(JSON.stringify(process.env));`);
    const { stdout } = await run(argv, { env: { PORT: '4321', FORGE_HOME: '/nope' } });
    const env = JSON.parse(stdout[0]!) as Record<string, string>;
    expect(env).toMatchObject({ CI: 'true', PORT: '4321', PATH: process.env.PATH });
    for (const name of ['FORGE_TOKEN', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'FORGE_HOME']) {
      expect(env, name).not.toHaveProperty(name);
    }
  });
});
