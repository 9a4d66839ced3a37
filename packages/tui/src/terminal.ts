/** xterm private modes: 1049 = save cursor + switch to a cleared alternate buffer; 25 = cursor visible. */
const ENTER_ALTERNATE_SCREEN = '\u001B[?1049h\u001B[H';
/**
 * The alternate buffer is erased before it is left: a terminal resized while the dashboard ran
 * may restore the user's smaller saved screen into the bigger window, and tmux then leaves the
 * dashboard's rows and columns beyond it on screen.
 */
const LEAVE_ALTERNATE_SCREEN = '\u001B[2J\u001B[H\u001B[?25h\u001B[?1049l';

export interface AlternateScreen {
  enter(): void;
  /** Idempotent: every exit path calls it, only the first one writes. */
  leave(): void;
}

/**
 * The dashboard draws on the alternate screen so quitting gives the user back the shell exactly
 * as it was, scrollback included.
 */
export function alternateScreen(stdout: NodeJS.WriteStream): AlternateScreen {
  let active = false;
  const write = (data: string) => {
    try {
      stdout.write(data);
    } catch {
      // The terminal may already be gone (SIGHUP); there is nothing left to restore then.
    }
  };
  return {
    enter() {
      if (active) return;
      active = true;
      write(ENTER_ALTERNATE_SCREEN);
    },
    leave() {
      if (!active) return;
      active = false;
      write(LEAVE_ALTERNATE_SCREEN);
    },
  };
}
