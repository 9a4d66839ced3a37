/**
 * Defaults of the command runner. Named here (not inlined) so steps and tests share them; they are
 * daemon-internal tunables rather than protocol constants, so they stay out of @forge/shared.
 */

/** A line longer than this (UTF-16 units) is cut and marked; longer lines are usually minified code. */
export const DEFAULT_MAX_LINE_LENGTH = 4_000;
/** Per command: past this many bytes of delivered lines the rest is counted but not delivered. */
export const DEFAULT_MAX_OUTPUT_BYTES = 5 * 1024 * 1024;
/** Between SIGTERM to the process group and SIGKILL. */
export const DEFAULT_KILL_GRACE_MS = 5_000;
/**
 * After the main process exited and its group was killed, how long we wait for stdout/stderr to reach
 * EOF. Only a process that escaped the group (setsid) can hold the pipes open that long.
 */
export const STREAM_DRAIN_MS = 1_000;
/** LineBatcher: flush at least this often while lines arrive… */
export const LINE_BATCH_INTERVAL_MS = 50;
/** …or as soon as this many lines are waiting. */
export const LINE_BATCH_MAX_LINES = 200;
