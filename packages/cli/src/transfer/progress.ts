import type { Output } from '../output.ts';

/** Redraws of a live progress line are at most this frequent. */
const REDRAW_MS = 100;

export interface ProgressLine {
  /** Replace the line (on a terminal; a no-op elsewhere, where only `done` prints). */
  update(text: string): void;
  /** Clear the line and print a final one. */
  done(text: string): void;
  /** Clear the line (before an error is printed). */
  clear(): void;
}

/** A progress line on stderr: redrawn in place on a terminal, a single final line in a pipe or CI log. */
export function createProgressLine(out: Output, live: boolean, now: () => number = Date.now): ProgressLine {
  let last = -Infinity;
  let drawn = false;
  const clear = () => {
    if (drawn) out.progress('\r\u001b[K');
    drawn = false;
  };
  return {
    update(text) {
      if (!live || now() - last < REDRAW_MS) return;
      last = now();
      drawn = true;
      out.progress(`\r\u001b[K${text}`);
    },
    done(text) {
      clear();
      out.info(text);
    },
    clear,
  };
}
