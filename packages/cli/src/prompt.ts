import { Interrupted } from './interrupt.ts';

/**
 * Reading a secret (the brain's code phrase) without it ever being an argument: from a prompt that
 * does not echo on a terminal, or from stdin when stdin is a pipe or a file.
 */

/** The part of process.stdin a hidden prompt needs. */
export interface TtyInput {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  setEncoding(encoding: BufferEncoding): unknown;
  on(event: 'data', listener: (chunk: string) => void): unknown;
  off(event: 'data', listener: (chunk: string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

export class PromptCancelled extends Error {
  override readonly name = 'PromptCancelled';
  constructor() {
    super('Cancelled: the input ended before a line was entered.');
  }
}

/**
 * One line typed at the terminal with nothing echoed: the prompt on `output` (stderr), then the
 * keys in raw mode. Enter ends it; Backspace deletes, Ctrl+U clears; escape sequences (arrows) are
 * ignored; Ctrl+C rejects with Interrupted, Ctrl+D on an empty line with PromptCancelled. The
 * terminal's mode is restored whatever happens.
 */
export function readHidden(
  input: TtyInput,
  output: { write(text: string): unknown },
  prompt: string,
): Promise<string> {
  // Raw mode first: a key typed as soon as the prompt shows must not be echoed by the terminal.
  input.setRawMode?.(true);
  input.setEncoding('utf8');
  input.resume();
  output.write(prompt);
  return new Promise<string>((resolve, reject) => {
    let value = '';
    let escape = false;
    const finish = (error: Error | null) => {
      input.off('data', onData);
      input.setRawMode?.(false);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (escape) {
          // CSI: ESC [ params… final byte (@ to ~); a lone ESC+char ends with that char.
          if (char !== '[' && char >= '@' && char <= '~') escape = false;
          continue;
        }
        switch (char) {
          case '\r':
          case '\n':
            return finish(null);
          case '\u0003':
            return finish(new Interrupted('SIGINT'));
          case '\u0004':
            if (value === '') return finish(new PromptCancelled());
            return finish(null);
          case '\u007f':
          case '\b':
            value = Array.from(value).slice(0, -1).join('');
            break;
          case '\u0015':
            value = '';
            break;
          case '\u001b':
            escape = true;
            break;
          default:
            if (char >= ' ') value += char;
        }
      }
    };
    input.on('data', onData);
  });
}

/** All of stdin (a pipe or a file), less one line ending at its end. */
export async function readAllStdin(input: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
