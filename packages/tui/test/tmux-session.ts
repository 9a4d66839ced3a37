import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, REPO_ROOT, type TestDaemon } from '@forge/testing';

/**
 * The real `forge tui` in a real terminal, for the tmux tests: a detached tmux session on a private
 * socket (the developer's sessions are never touched) running a plain sh with a known prompt.
 */

export const FORGE_BIN = join(REPO_ROOT, 'packages/cli/bin/forge.js');
const BUILT = ['packages/cli/dist/forge.js', 'packages/daemon/dist/main.js', 'packages/tui/dist/index.js'];
/** The shell prompt inside the session: what "back to the shell" looks like. */
export const PROMPT = 'forge-tmux-test$ ';
/** capture-pane drops trailing spaces: the prompt as it reads on an empty command line. */
export const BARE_PROMPT = PROMPT.trimEnd();

const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
const missing = BUILT.filter((file) => !existsSync(join(REPO_ROOT, file)));
/** Why the tmux tests cannot run here (said once by each test file), or null. */
export const skipReason = !hasTmux
  ? 'tmux is not installed (apt-get install -y tmux)'
  : missing.length > 0
    ? `the built ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing (run pnpm build)`
    : null;

export interface TmuxSession {
  tmux(...args: string[]): string;
  screen(): string;
  /** Polls the screen (a terminal has no event to await) until one capture passes `test`. */
  waitForScreen(what: string, test: (text: string) => boolean, timeoutMs?: number): Promise<string>;
  /** A sh with PROMPT in `cwd`, `columns`×`rows`, waited for. */
  start(cwd: string, columns: number, rows: number): Promise<void>;
  /** Types a line and presses Enter. */
  type(line: string): void;
  kill(): void;
}

/**
 * A session whose tmux server gets the developer's or CI's settings that would change what forge or
 * Ink do scrubbed (Ink draws nothing live under CI), and forge pointed at `daemon()`.
 */
export function tmuxSession(socket: string, daemon: () => TestDaemon): TmuxSession {
  const tmux = (...args: string[]) => {
    const env = cleanEnv({ FORGE_URL: daemon().url, FORGE_HOME: daemon().home });
    delete env.TMUX;
    const result = spawnSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', env });
    if (result.status !== 0) throw new Error(`tmux ${args.join(' ')} failed: ${result.stderr}`);
    return result.stdout;
  };
  const screen = () => tmux('capture-pane', '-p', '-t', 'forge');
  const waitForScreen = async (what: string, test: (text: string) => boolean, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = screen();
      if (test(text)) return text;
      if (Date.now() > deadline)
        throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}. Screen:\n${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return {
    tmux,
    screen,
    waitForScreen,
    async start(cwd, columns, rows) {
      // Given as words, the command runs without a shell of tmux's own in between (bash would drop PS1).
      const size = ['-x', `${columns}`, '-y', `${rows}`];
      tmux(
        '-f',
        '/dev/null',
        'new-session',
        '-d',
        '-s',
        'forge',
        ...size,
        '-c',
        cwd,
        'env',
        `PS1=${PROMPT}`,
        'sh',
      );
      await waitForScreen('the shell prompt', (text) => text.includes(BARE_PROMPT));
    },
    type(line) {
      tmux('send-keys', '-t', 'forge', '-l', line);
      tmux('send-keys', '-t', 'forge', 'Enter');
    },
    kill() {
      spawnSync('tmux', ['-S', socket, 'kill-server'], { stdio: 'ignore' });
    },
  };
}
