import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Interrupted } from './interrupt.ts';
import { PromptCancelled, readAllStdin, readHidden, type TtyInput } from './prompt.ts';

/** A terminal's input as a test drives it: keys typed, raw mode switched, and nothing echoed. */
class FakeTty extends EventEmitter implements TtyInput {
  isTTY = true;
  raw: boolean[] = [];
  paused = true;
  setRawMode(mode: boolean) {
    this.raw.push(mode);
  }
  setEncoding() {}
  resume() {
    this.paused = false;
  }
  pause() {
    this.paused = true;
  }
  type(keys: string) {
    this.emit('data', keys);
  }
}

function prompt() {
  const tty = new FakeTty();
  let written = '';
  const value = readHidden(tty, { write: (t: string) => (written += t) }, 'Code phrase: ');
  return { tty, value, written: () => written };
}

describe('readHidden', () => {
  it('reads a line in raw mode without echoing it, then restores the terminal', async () => {
    const { tty, value, written } = prompt();
    tty.type('corr');
    tty.type('ect horse\r');
    await expect(value).resolves.toBe('correct horse');
    expect(written()).toBe('Code phrase: \n');
    expect(tty.raw).toEqual([true, false]);
    expect(tty.paused).toBe(true);
    expect(tty.listenerCount('data')).toBe(0);
  });

  it('Backspace deletes, Ctrl+U clears, arrow keys are ignored', async () => {
    const { tty, value } = prompt();
    tty.type('abx\u007fc\u001b[D\u001b[Cd\u0015secret phrase\n');
    await expect(value).resolves.toBe('secret phrase');
  });

  it('Ctrl+C is an interrupt, Ctrl+D on an empty line a cancel; the terminal is restored', async () => {
    const c = prompt();
    c.tty.type('abc\u0003');
    await expect(c.value).rejects.toBeInstanceOf(Interrupted);
    expect(c.tty.raw).toEqual([true, false]);
    const d = prompt();
    d.tty.type('\u0004');
    await expect(d.value).rejects.toBeInstanceOf(PromptCancelled);
  });
});

describe('readAllStdin', () => {
  it('reads everything, less one final line ending', async () => {
    await expect(readAllStdin(Readable.from(['correct ', 'horse\r\n']))).resolves.toBe('correct horse');
    await expect(readAllStdin(Readable.from(['two\nlines\n\n']))).resolves.toBe('two\nlines\n');
    await expect(readAllStdin(Readable.from([]))).resolves.toBe('');
  });
});
