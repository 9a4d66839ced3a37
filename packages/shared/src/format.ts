import type { Stack } from './domain/blueprint.ts';

/** Session time as minutes:seconds (docs/product.md#constants), e.g. 125000 ms → "2:05". */
export function formatSessionTime(ms: number): string {
  const total = Math.max(0, Math.floor((Number.isFinite(ms) ? ms : 0) / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${seconds.toString().padStart(2, '0')}`;
}

/** Short human duration for CLI/TUI, e.g. 850 → "850ms", 12_300 → "12.3s", 125_000 → "2m05s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${m}m${s.toString().padStart(2, '0')}s`;
}

/**
 * The export file name of the FixIt console log (docs/product.md#fixit-console): a .txt named with the date.
 */
export const logExportFileName = (date: Date): string => `forge-logs-${date.toISOString().slice(0, 10)}.txt`;

/**
 * Size label with B, KB or MB (docs/product.md#file-tree-and-explorer), the one every client shows: "0 B",
 * "1.5 KB", "200 KB", "5 MB".
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '0 B';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  if (bytes < 1024 * 1024) return `${trimUnit(bytes / 1024)} KB`;
  return `${trimUnit(bytes / (1024 * 1024))} MB`;
}
const trimUnit = (n: number): string =>
  n >= 100 ? Math.round(n).toString() : n.toFixed(1).replace(/\.0$/, '');

/** "1 file", "3 files". */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Arguments shown without quotes; anything else is single-quoted the way a POSIX shell needs. */
const PLAIN_ARG = /^[\w@%+=:,./-]+$/;

/** A command (argv) as one line a person could paste into a shell: `npm run build`, `node 'a b.js'`. */
export function formatCommand(argv: readonly string[]): string {
  return argv.map((arg) => (PLAIN_ARG.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`)).join(' ');
}

const pad2 = (n: number): string => n.toString().padStart(2, '0');
const asDate = (iso: string | undefined): Date | null => {
  const date = iso === undefined ? null : new Date(iso);
  return date && !Number.isNaN(date.getTime()) ? date : null;
};

/** Local wall-clock time of an ISO timestamp as HH:MM:SS ("--:--:--" when it is not a date). */
export function formatClock(iso: string | undefined): string {
  const d = asDate(iso);
  return d ? `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}` : '--:--:--';
}

/** Local date and time of an ISO timestamp as YYYY-MM-DD HH:MM:SS (the text as is when it is not a date). */
export function formatLocalTime(iso: string): string {
  const d = asDate(iso);
  if (!d) return iso;
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${formatClock(iso)}`;
}

/** The lines of an output frame: one or more; a trailing newline is not an extra empty line. */
export function splitLines(output: string): string[] {
  const lines = output.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

// CSI / OSC / single-character escape sequences (what Node's stripVTControlCharacters removes).
const ANSI =
  // eslint-disable-next-line no-control-regex
  /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?(?:\u0007|\u001B\\))|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~]))/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001F\u007F-\u009F]/g;

/**
 * One line of a project's own output, safe to draw in a terminal or a plain-text view: colour and
 * cursor sequences and control characters are removed (a carriage return keeps only what was drawn
 * last, as a terminal would show it), and tabs become two spaces.
 */
export function sanitizeLine(text: string): string {
  const last =
    text
      .split('\r')
      .filter((part) => part.length > 0)
      .at(-1) ?? '';
  return last.replace(ANSI, '').replace(/\t/g, '  ').replace(CONTROLS, '');
}

/**
 * A value from an uploaded project (a framework name, a file, a rule) on one line of a report:
 * colour and cursor sequences removed, every other control character a space, so it can neither
 * move a terminal's cursor nor break the line.
 */
export function inlineText(text: string): string {
  return text.replace(ANSI, '').replace(CONTROLS, ' ');
}

/** A URL with its password (if any) replaced by "***", for printing and logs (a Redis URL may carry one). */
export function redactUrlPassword(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString().replace(/\/$/, '');
  } catch {
    return raw.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/** A compact age for terminals: "12s", "3m", "2h", "4d" (whole units, rounded down; negative is 0s). */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

/** How clients name a stack beside the framework. */
export const STACK_LABELS: Record<Stack, string> = {
  javascript: 'JavaScript',
  python: 'Python',
  go: 'Go',
  deno: 'Deno',
  php: 'PHP',
  ruby: 'Ruby',
  rust: 'Rust',
  java: 'Java',
  dotnet: '.NET',
  elixir: 'Elixir',
  hugo: 'Hugo',
  jekyll: 'Jekyll',
  mkdocs: 'MkDocs',
  zola: 'Zola',
  static: 'static',
};

/**
 * The framework with its stack beside it, as plans are shown: "flask · Python", "vite · JavaScript";
 * the stack alone when it is the framework ("Go", "Hugo", "static").
 */
export function frameworkWithStack(plan: { framework: string; stack?: Stack | undefined }): string {
  if (!plan.stack) return plan.framework;
  const label = STACK_LABELS[plan.stack];
  return plan.framework === plan.stack ? label : `${plan.framework} · ${label}`;
}
