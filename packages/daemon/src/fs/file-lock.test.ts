import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { withFileLock } from './file-lock.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-file-lock-'));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Another process holding `file` until killed; resolves once it holds it. */
async function holderProcess(file: string): Promise<ChildProcess> {
  const script = `
    import { tryFileLock } from ${JSON.stringify(path.join(import.meta.dirname, 'file-lock.ts'))};
    const held = tryFileLock(${JSON.stringify(file)});
    console.log(held ? 'held' : 'busy');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const first = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before it said`)));
  });
  expect(first).toBe('held');
  return child;
}

describe('withFileLock', () => {
  it('runs the holders of one lock in this process one after the other', async () => {
    const file = path.join(dir, 'in-process.lock');
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let waited = 0;
    const first = withFileLock(file, async () => {
      events.push('first in');
      await gate;
      events.push('first out');
    });
    const second = withFileLock(file, async () => void events.push('second in'), {
      onWait: () => waited++,
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['first in']);
    release();
    await Promise.all([first, second]);
    expect(events).toEqual(['first in', 'first out', 'second in']);
    expect(waited).toBe(1);
  });

  it('waits for a lock another process holds, and takes it when that process is killed', async () => {
    const file = path.join(dir, 'cross-process.lock');
    const holder = await holderProcess(file);
    let ran = false;
    const waiting = new Promise<void>((resolve) => {
      void withFileLock(file, async () => void (ran = true), { onWait: resolve });
    });
    await waiting;
    expect(ran).toBe(false);
    // kill -9: no chance to release it; the kernel does.
    holder.kill('SIGKILL');
    await expect.poll(() => ran, { timeout: 10_000 }).toBe(true);
  });

  it('gives up the wait when its signal aborts, and the lock stays usable', async () => {
    const file = path.join(dir, 'abort.lock');
    const holder = await holderProcess(file);
    const stop = new AbortController();
    const waiting = withFileLock(file, async () => 'ran', {
      signal: stop.signal,
      onWait: () => stop.abort(new Error('cancelled')),
    });
    await expect(waiting).rejects.toThrow('cancelled');
    holder.kill('SIGKILL');
    await expect(withFileLock(file, async () => 'ran')).resolves.toBe('ran');
  });
});
