/** TUI-only timings and texts (the shared protocol constants live in @forge/shared). */

/** A health check slower than this is reported as such instead of leaving the body waiting. */
export const HEALTH_TIMEOUT_MS = 5_000;

/** How many recent /ws messages the dashboard keeps for panes that mount late. */
export const MESSAGE_BUFFER_SIZE = 200;

/** The command that starts a daemon, shown while disconnected. */
export const START_DAEMON_COMMAND = 'forge daemon start';

/** Printed (and exit code 2) when `forge tui` runs without a terminal. */
export const NO_TTY_MESSAGE = 'forge tui needs a terminal; use `forge daemon logs -f` instead';

/** Exit codes of runTui. */
export const TUI_EXIT = { ok: 0, crashed: 1, usage: 2 } as const;
