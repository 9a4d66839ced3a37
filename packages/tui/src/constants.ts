/** TUI-only timings, sizes and texts (the shared protocol constants live in @forge/shared). */

/** Every call to the daemon gives up after this, so a hung daemon never holds a pane. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** The upload answers once the ZIP is extracted and planned: 50 MB on a slow disk takes a while. */
export const UPLOAD_TIMEOUT_MS = 5 * 60_000;
/** A look at the followed build's record even while /ws is up: a lost event must not freeze it. */
export const BUILD_SAFETY_POLL_MS = 10_000;
/** Lines of the followed build's output kept for the build pane (the pane shows what fits). */
export const OUTPUT_BUFFER_LINES = 500;
/** Lines the logs pane keeps (the FixIt console's live log). */
export const LOG_BUFFER_LINES = 1_000;
/** A burst of /ws lines is drawn at most this often (Ink itself draws at most 30 frames a second). */
export const RENDER_BATCH_MS = 33;
/** How long a notice stays in the status line. */
export const NOTICE_MS = 6_000;
/** Terminal height assumed when the output stream does not report one (pipes, test renderers). */
export const FALLBACK_ROWS = 40;
export const FALLBACK_COLUMNS = 100;

/** The command that starts a daemon, shown while disconnected. */
export const START_DAEMON_COMMAND = 'forge daemon start';

/** Printed (and exit code 2) when `forge tui` runs without a terminal. */
export const NO_TTY_MESSAGE =
  'forge tui needs a terminal; use `forge logs -f` or `forge status --watch` instead';

/** Exit codes of runTui. */
export const TUI_EXIT = { ok: 0, crashed: 1, usage: 2 } as const;
