/**
 * What the terminal around forge can take: colours, and progress lines redrawn in place. A pipeline
 * gets plain text only, with no escape codes at all: when stdout is not a terminal (forge's output is
 * being captured: a CI log, `| jq`, `> file`), with NO_COLOR, TERM=dumb or --no-color.
 */
export interface Terminal {
  /** Colour the data printed on stdout (tables, statuses). */
  stdoutColor: boolean;
  /** Colour the progress and summaries printed on stderr. */
  stderrColor: boolean;
  /** stderr is a terminal that can redraw a progress line in place (\r, erase line). */
  stderrLive: boolean;
}

interface TtyLike {
  isTTY?: boolean;
}

export interface TerminalInput {
  stdout: TtyLike;
  stderr: TtyLike;
  env: NodeJS.ProcessEnv;
  /** false with `--no-color`. */
  color?: boolean;
}

/**
 * Escape codes only for a person at a terminal: stdout and the stream written are terminals, and
 * neither --no-color, NO_COLOR (any non-empty value, see no-color.org) nor TERM=dumb says otherwise.
 * Those also turn off the redrawn progress line: in a pipeline every line stays as printed.
 */
export function detectTerminal({ stdout, stderr, env, color = true }: TerminalInput): Terminal {
  const plain =
    !color ||
    (env.NO_COLOR !== undefined && env.NO_COLOR !== '') ||
    env.TERM === 'dumb' ||
    stdout.isTTY !== true;
  return {
    stdoutColor: !plain,
    stderrColor: !plain && stderr.isTTY === true,
    stderrLive: !plain && stderr.isTTY === true,
  };
}

/** A terminal without escape codes (tests, pipes). */
export const PLAIN_TERMINAL: Terminal = { stdoutColor: false, stderrColor: false, stderrLive: false };

export type Tone = 'good' | 'warn' | 'bad' | 'dim' | 'bold';

const SGR: Record<Tone, [number, number]> = {
  good: [32, 39],
  warn: [33, 39],
  bad: [31, 39],
  dim: [2, 22],
  bold: [1, 22],
};

/** `paint(true)` wraps text in an SGR colour; `paint(false)` returns it unchanged. */
export const paint =
  (enabled: boolean) =>
  (tone: Tone | undefined, text: string): string => {
    if (!enabled || tone === undefined) return text;
    const [on, off] = SGR[tone];
    return `\u001b[${on}m${text}\u001b[${off}m`;
  };

// Control characters (C0, DEL, C1), and whole ANSI escape sequences (CSI … final byte, OSC … BEL/ST).
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

/**
 * Text from a build (log lines, project file names) made safe for a terminal: escape sequences are
 * removed (they could move the cursor, retitle the window or fake other output) and other control
 * characters become spaces. Tabs are kept.
 */
export const sanitize = (text: string): string => text.replace(ESCAPES, '').replace(CONTROL, ' ');

/** Text with its ANSI escape sequences removed and every other character kept (for reports). */
export const stripEscapes = (text: string): string => text.replace(ESCAPES, '');
