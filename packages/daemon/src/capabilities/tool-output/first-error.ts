import fs from 'node:fs';
import path from 'node:path';
import { MAX_LISTED_TOOL_ERRORS, sanitizeLine, type BuildError, type ToolError } from '@forge/shared';
import {
  BABEL_SYNTAX,
  COLON_PLACE,
  ESBUILD_PLACE,
  FILE_REF,
  babelPlace,
  parenPlace,
  placeInMessage,
} from './places.ts';

/**
 * The line of a failed command's output that says what went wrong, and where. Tools print their
 * error somewhere in hundreds of lines of progress, stack frames and package-manager epilogue
 * ("npm run build exited with code 1" says nothing); a person reads the first error line and the
 * place it names. This finds them as the lines stream, in bounded memory: a short window around the
 * line being read, and a ring of the last lines for the tail.
 *
 * What counts, best first (the earliest line of the best kind wins):
 * 1. a tool's own error: Vite/Rollup/Rolldown ("error during build:" and the line after it), esbuild
 *    and Angular ("✘ [ERROR] …" with "    src/a.ts:3:7:" under it), tsc ("src/a.ts(3,7): error TS…",
 *    "src/a.ts:3:7 - error TS…"), webpack ("ERROR in ./src/a.js 5:2-20" and its message), Next.js
 *    and Create React App ("Failed to compile." then the file and the message), Turbopack ("Turbopack
 *    build failed with 1 error:", the file, the message, the project file in its import trace);
 * 2. a stated error: "Error: …", "TypeError: …", Python's "ModuleNotFoundError: …" (place from the
 *    stack frames or the traceback), "error: …";
 * 3. a package manager's error (npm, pnpm, yarn), less its generic lines ("code 1", "path …",
 *    "A complete log of this run…").
 */

/** Lines of output kept as the tail of a failure (BuildError.tail). */
export const ERROR_TAIL_LINES = 20;
/** A first line or a tail line longer than this is cut (the record is read by people, not tools). */
export const MAX_EVIDENCE_LINE = 500;
/** Lines before and after a line that a rule may read (a traceback above it, a location below). */
const LOOK_BEHIND = 12;
const LOOK_AHEAD = 16;
/** Lines longer than this are not read by the rules (no regex runs over a 4,000-character blob). */
const MAX_SCANNED_LINE = 2_000;

export type ErrorLocation = NonNullable<BuildError['location']>;

export interface FirstError {
  /** The error as the tool stated it, project paths made relative. */
  firstLine: string;
  /** Where it points, when the tool printed a place inside the project. */
  location?: ErrorLocation;
}

/** What a failed command printed that explains it (BuildFailure.evidence). */
export type CommandEvidence = Pick<BuildError, 'firstLine' | 'location' | 'errors' | 'errorCount'> & {
  tail: string[];
};

export interface ProjectPaths {
  /** The project's root: locations are relative to it, and paths outside it are not locations. */
  projectDir: string;
  /** Where the command ran (relative paths in its output start here); default: projectDir. */
  cwd?: string;
}

/**
 * Absolute paths → project-relative; anything outside the project is not a place. Exported for
 * ScanBot's diagnosis (capabilities/diagnose), which places the files the errors name the same way.
 */
export class PathMap {
  readonly #roots: string[];
  readonly #cwd: string;

  constructor({ projectDir, cwd }: ProjectPaths) {
    const root = path.resolve(projectDir);
    let real = root;
    try {
      real = fs.realpathSync(root);
    } catch {
      // Not there (tests, a project already removed): the path as given is all there is.
    }
    // Longest first: a real path that extends the given one must be stripped whole.
    this.#roots = [...new Set([root, real])].sort((a, b) => b.length - a.length);
    this.#cwd = path.resolve(cwd ?? projectDir);
  }

  /** `text` with the project's absolute paths (and file:// URLs of them) written relative to it. */
  text(text: string): string {
    let out = text;
    for (const root of this.#roots) {
      if (!out.includes(root)) continue;
      out = out
        .split(`file://${root}/`)
        .join('')
        .split(`${root}/`)
        .join('')
        .replace(new RegExp(`${escapeRegExp(root)}(?![\\w.-])`, 'g'), '.');
    }
    return out;
  }

  /**
   * A place inside the project, or undefined: outside it, a node: internal, line 0, or no such file
   * (a host name with a port, "fonts.example.com:443", looks like one).
   */
  place(file: string, line: number, column?: number): ErrorLocation | undefined {
    if (!Number.isInteger(line) || line < 1) return undefined;
    let name = file.trim().replace(/^['"`]|['"`]$/g, '');
    if (name.startsWith('file://')) name = decodeURIComponent(name.slice('file://'.length));
    if (name === '' || name.startsWith('<') || /^[a-z][\w+.-]*:/i.test(name)) return undefined;
    const absolute = path.isAbsolute(name) ? path.normalize(name) : path.resolve(this.#cwd, name);
    for (const root of this.#roots) {
      const rel = path.relative(root, absolute);
      if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
      if (!fs.existsSync(absolute)) return undefined;
      return {
        file: rel.split(path.sep).join('/'),
        line,
        ...(column !== undefined && Number.isInteger(column) && column >= 1 ? { column } : {}),
      };
    }
    return undefined;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A found error: its rank (1 best) and what it says. */
interface Candidate extends FirstError {
  rank: 1 | 2 | 3;
  /** The tool whose own error format it is (rank 1): "tsc", "esbuild", "vite", "webpack", "babel"… */
  tool?: string;
}

/** The lines a rule sees: the window around line `i`, the path map. */
interface View {
  lines: readonly string[];
  i: number;
  paths: PathMap;
}

type Rule = (view: View) => Candidate | null;

const isBlank = (line: string | undefined) => line === undefined || line.trim() === '';

// eslint-disable-next-line no-control-regex
const HAS_CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
/** A line as a person sees it (colours and control characters gone); most lines have none to remove. */
const clean = (text: string): string => (HAS_CONTROL.test(text) ? sanitizeLine(text) : text).trimEnd();

/**
 * Every rule needs one of these words (or Go's "main.go:5:2: " place, which states an error without
 * one): a line without them is not read further (most lines).
 */
const MAY_STATE_ERROR = /err|fail|exception|YN0|\.go:\d+:\d+: /i;

/** Index of the first non-blank line after `from` within the window, or -1. */
function nextLine(lines: readonly string[], from: number): number {
  for (let j = from + 1; j < lines.length; j += 1) if (!isBlank(lines[j])) return j;
  return -1;
}

/** "[plugin angular-compiler]" and similar bundler suffixes add nothing to the message. */
const tidy = (text: string) =>
  text
    .replace(/\s*\[plugin [^\]]+\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

const cut = (text: string) =>
  text.length > MAX_EVIDENCE_LINE ? `${text.slice(0, MAX_EVIDENCE_LINE - 1)}…` : text;

/** A statement of an error, with its place when one is known. */
function candidate(
  rank: Candidate['rank'],
  view: View,
  text: string,
  location?: ErrorLocation,
  tool?: string,
): Candidate {
  const firstLine = cut(tidy(view.paths.text(text)));
  return { rank, firstLine, ...(location ? { location } : {}), ...(tool ? { tool } : {}) };
}

// Places as tools print them.

/** A place on `line` (first of the usual notations), inside the project and not in node_modules. */
function placeOn(line: string, paths: PathMap): ErrorLocation | undefined {
  const paren = parenPlace(line, paths);
  if (paren && !inDependencies(paren.file)) return paren;
  const m = COLON_PLACE.exec(line);
  const place = m && paths.place(m[1]!, Number(m[2]), m[3] === undefined ? undefined : Number(m[3]));
  return place && !inDependencies(place.file) ? place : undefined;
}

const inDependencies = (file: string) => /(^|\/)(node_modules|site-packages|dist-packages)\//.test(file);

/** The first place in lines (from, to] of the window, or undefined. */
function placeBelow(view: View, from: number, count: number): ErrorLocation | undefined {
  const end = Math.min(view.lines.length, from + 1 + count);
  for (let j = from + 1; j < end; j += 1) {
    const place = placeOn(view.lines[j]!, view.paths);
    if (place) return place;
  }
  return undefined;
}

// Rank 1: a tool's own error.

/** A line that announces the error on the next line(s), rather than stating it. */
const HEADER =
  /^(?:error during build:?|(?:Error: )?(?:\w+ )?build failed with \d+ errors?:?|(?:\[[^\]]+\] )?Transform failed with \d+ errors?:?)$/i;
/** esbuild's transform error: "/abs/src/a.ts:3:7: ERROR: Expected …" (0-based column). */
const ESBUILD_TRANSFORM = /^(\S.*?):(\d+):(\d+): ERROR: (.+)$/;

/**
 * The statement that starts at line `j`: the line itself, or with the line under it when it only
 * announces it ("`next/font` error:" / "Failed to fetch `Inter` from Google Fonts.").
 */
function statementAt(lines: readonly string[], j: number): string {
  const line = lines[j]!.trim();
  return line.endsWith(':') && !isBlank(lines[j + 1]) ? `${line} ${lines[j + 1]!.trim()}` : line;
}

/**
 * A project file named in Turbopack's "Import trace:" under line `from` (the last one is the
 * project's own file that imported what failed), for an error whose own file is Next's.
 */
function importTraceFile(view: View, from: number): string | undefined {
  const end = Math.min(view.lines.length, from + 1 + LOOK_AHEAD);
  let file: string | undefined;
  let inTrace = false;
  for (let j = from + 1; j < end; j += 1) {
    const line = view.lines[j]!.trim();
    if (line === 'Import trace:') inTrace = true;
    else if (inTrace && line === '' && file) break;
    else if (inTrace) file = view.paths.place(line, 1)?.file ?? file;
  }
  return file;
}

/**
 * The error under a file line ("./app/page.tsx:3:7" then "Module not found: …"): its statement, with
 * the file's place when it has a line, or the file named in the text when it has none.
 */
function underFileRef(view: View, j: number, tool: string): Candidate | null {
  const { lines, paths } = view;
  const ref = FILE_REF.exec(lines[j]!.trim());
  if (!ref) return null;
  const k = nextLine(lines, j);
  if (k === -1) return null;
  const message = statementAt(lines, k).replace(/^Error: /, '');
  if (ref[2] !== undefined) {
    const place = paths.place(ref[1]!, Number(ref[2]), Number(ref[3]));
    if (place) return candidate(1, view, message, place, tool);
  }
  // A file without a line is no location (it needs one), but it still belongs in the line.
  const named = paths.place(ref[1]!, 1)?.file ?? importTraceFile(view, k);
  return candidate(1, view, named ? `${named}: ${message}` : message, undefined, tool);
}

/** Vite, Rollup, Rolldown, esbuild's API, Turbopack: "error during build:" then the error. */
const afterHeader: Rule = (view) => {
  const { lines, i, paths } = view;
  if (!HEADER.test(lines[i]!.trim())) return null;
  let j = nextLine(lines, i);
  while (j !== -1 && HEADER.test(lines[j]!.trim())) j = nextLine(lines, j);
  if (j === -1) return null;
  const message = lines[j]!.trim();
  const transform = ESBUILD_TRANSFORM.exec(message);
  if (transform) {
    const place = paths.place(transform[1]!, Number(transform[2]), Number(transform[3]) + 1);
    return candidate(1, view, transform[4]!, place, 'esbuild');
  }
  const header = lines[i]!.trim();
  const tool = /^error during build/i.test(header)
    ? 'vite'
    : /turbopack/i.test(header)
      ? 'turbopack'
      : 'esbuild';
  const fileFirst = underFileRef(view, j, tool);
  if (fileFirst) return fileFirst;
  const place = placeOn(message, paths) ?? placeBelow(view, j, 8);
  return candidate(1, view, message.replace(/^Error: /, ''), place, tool);
};

/** esbuild and Angular's esbuild builder: "✘ [ERROR] Could not resolve "x"" then "    src/a.ts:3:7:". */
const ESBUILD_ERROR = /^\s*(?:✘|×|X) \[ERROR\] (.+)$/;
const esbuildError: Rule = (view) => {
  const m = ESBUILD_ERROR.exec(view.lines[view.i]!);
  if (!m) return null;
  const end = Math.min(view.lines.length, view.i + 1 + LOOK_AHEAD);
  for (let j = view.i + 1; j < end; j += 1) {
    const line = view.lines[j]!;
    if (ESBUILD_ERROR.test(line)) break;
    const at = ESBUILD_PLACE.exec(line);
    // Angular reports a template it cannot map as line 0: the next place (the component) is better.
    const place = at ? view.paths.place(at[1]!, Number(at[2]), Number(at[3]) + 1) : undefined;
    if (place) return candidate(1, view, m[1]!, place, 'esbuild');
  }
  return candidate(1, view, m[1]!, undefined, 'esbuild');
};

const esbuildTransform: Rule = (view) => {
  const m = ESBUILD_TRANSFORM.exec(view.lines[view.i]!.trim());
  if (!m) return null;
  return candidate(1, view, m[4]!, view.paths.place(m[1]!, Number(m[2]), Number(m[3]) + 1), 'esbuild');
};

/** tsc (and Angular's webpack builder): "src/a.ts(3,7): error TS2307: …", "src/a.ts:3:7 - error TS2307: …". */
const TSC_PLAIN = /^(\S.*?)\((\d+),(\d+)\): (error (?:TS|NG)\d+: .+)$/;
const TSC_PRETTY = /^(?:Error: )?(\S.*?):(\d+):(\d+) - (error (?:TS|NG)\d+: .+)$/;
const tsc: Rule = (view) => {
  const line = view.lines[view.i]!.trim();
  const m = TSC_PLAIN.exec(line) ?? TSC_PRETTY.exec(line);
  if (!m) return null;
  const tool = /^error NG/.test(m[4]!) ? 'angular' : 'tsc';
  return candidate(1, view, m[4]!, view.paths.place(m[1]!, Number(m[2]), Number(m[3])), tool);
};

/** Go's compiler and vet: "./main.go:5:2: undefined: x" (under a "# module/pkg" header). */
const GO_ERROR = /^(\.{0,2}\/?[\w./-]+\.go):(\d+):(\d+): (.+)$/;
const goCompiler: Rule = (view) => {
  const m = GO_ERROR.exec(view.lines[view.i]!.trim());
  if (!m) return null;
  return candidate(1, view, m[4]!, view.paths.place(m[1]!, Number(m[2]), Number(m[3])), 'go');
};

/** PHP: "PHP Fatal error:  Uncaught Error: … in /app/index.php:12" or "… in /app/index.php on line 3". */
const PHP_ERROR = /^(?:PHP )?(?:Fatal|Parse) error:\s+(.+?) in (\S+\.php)(?::(\d+)| on line (\d+))/;
const phpError: Rule = (view) => {
  const m = PHP_ERROR.exec(view.lines[view.i]!.trim());
  if (!m) return null;
  return candidate(1, view, m[1]!, view.paths.place(m[2]!, Number(m[3] ?? m[4])), 'php');
};

/**
 * Hugo: 'Error: Error building site: failed to render pages: render of "home" failed:
 * "/site/layouts/index.html:1:12": execute of template failed: …', or for a template that does not
 * parse 'Error: add site dependencies: load resources: loading templates: "/site/layouts/x.html:1:1":
 * parse failed: …'. The message is what follows the template's place, when it names one.
 */
const HUGO_ERROR = /^(?:Error: )?((?:[Ee]rror building site|add site dependencies): .+)$/;
const HUGO_PLACE = /"([^"]+?):(\d+):(\d+)": (.+)$/;
const hugoError: Rule = (view) => {
  const m = HUGO_ERROR.exec(view.lines[view.i]!.trim());
  if (!m) return null;
  const at = HUGO_PLACE.exec(m[1]!);
  const place = at ? view.paths.place(at[1]!, Number(at[2]), Number(at[3])) : placeOn(m[1]!, view.paths);
  return candidate(1, view, at && place ? at[4]! : m[1]!, place, 'hugo');
};

/**
 * Jekyll: "Liquid Exception: Liquid syntax error (line 5): 'if' tag was never closed in index.md"
 * (the line is Liquid's count, not the file's: only an include's own "(/site/_includes/x.html line 3)"
 * is a place), "Dependency Error: Yikes! It looks like you don't have jekyll-feed or one of its
 * dependencies installed. …", "Conversion error: Jekyll::Converters::Scss encountered an error …".
 */
const JEKYLL_ERROR = /^(Liquid Exception|Dependency Error|Conversion error): (?:Yikes! )?(.+)$/;
const LIQUID_INCLUDE = /\((\S+) line (\d+)\)/;
const jekyllError: Rule = (view) => {
  const m = JEKYLL_ERROR.exec(view.lines[view.i]!.trim());
  if (!m) return null;
  const message = m[1] === 'Dependency Error' ? (/^[^.]+\./.exec(m[2]!)?.[0] ?? m[2]!) : m[2]!;
  const include = LIQUID_INCLUDE.exec(message);
  const place = include ? view.paths.place(include[1]!, Number(include[2])) : undefined;
  return candidate(1, view, `${m[1]}: ${message}`, place, 'jekyll');
};

/** MkDocs: "ERROR    -  Config value 'theme': Unrecognised theme name: 'material'. …". */
const MKDOCS_ERROR = /^ERROR {4}- {2}(.+)$/;
const mkdocsError: Rule = (view) => {
  const m = MKDOCS_ERROR.exec(view.lines[view.i]!.trim());
  return m ? candidate(1, view, m[1]!, undefined, 'mkdocs') : null;
};

/** webpack: "ERROR in ./src/index.js 5:2-20" then "Module not found: Error: Can't resolve …" (0-based column). */
const WEBPACK = /^ERROR in (\S+)(?: (\d+):(\d+)(?:-\d+(?::\d+)?)?)?(?:\s+(.*))?$/;
const webpack: Rule = (view) => {
  const { lines, i, paths } = view;
  const m = WEBPACK.exec(lines[i]!.trim());
  if (!m) return null;
  let message = m[4]?.trim() ?? '';
  if (!message) {
    const j = nextLine(lines, i);
    if (j === -1) return null;
    message = lines[j]!.trim();
    // "Module build failed (from ./node_modules/babel-loader/…):" says which loader; the next line says what.
    if (/^Module build failed\b.*:$/.test(message) && !isBlank(lines[j + 1])) message = lines[j + 1]!.trim();
  }
  const place =
    m[2] === undefined ? babelPlace(message, paths) : paths.place(m[1]!, Number(m[2]), Number(m[3]) + 1);
  return candidate(1, view, message, place, 'webpack');
};

/** Next.js (webpack) and Create React App: "Failed to compile." then "./app/page.tsx:3:7" (or only the file) and the message. */
const failedToCompile: Rule = (view) => {
  const { lines, i } = view;
  if (!/^Failed to compile\.?$/.test(lines[i]!.trim())) return null;
  const j = nextLine(lines, i);
  if (j === -1) return null;
  return underFileRef(view, j, 'webpack') ?? candidate(1, view, statementAt(lines, j), undefined, 'webpack');
};

/** Babel: "SyntaxError: /abs/src/App.js: Unexpected token, expected "," (2:37)" (0-based column). */
const BABEL = new RegExp(`^(?:\\S+: )?${BABEL_SYNTAX.source}`);
const babel: Rule = (view) => {
  const line = view.lines[view.i]!.trim();
  const place = BABEL.test(line) ? babelPlace(line, view.paths) : undefined;
  return place ? candidate(1, view, line, place, 'babel') : null;
};

// Rank 2: a stated error.

/** "Error: …", "TypeError: …", "Error [ERR_X]: …", "[!] RollupError: …", "ModuleNotFoundError: …". */
const STATED = /^(?:\[!\]\s*)?(?:Uncaught\s+)?((?:[A-Z][\w.]*)?(?:Error|Exception)(?: \[[\w-]+\])?: .+)$/;
/** Node's inspect of an error object: "[Error: getaddrinfo ENOTFOUND x] {". */
const INSPECTED = /^\[((?:[A-Z]\w*)?Error: .+)\](?: \{)?$/;
/** "error: …", "ERROR: …", "error[E0425]: …", "[ERROR] …". */
const PLAIN_ERROR = /^(?:(?:error|ERROR)(?:\[[\w-]+\])?:\s+|\[ERROR\]\s+)(.+)$/;
/**
 * Errors that only say a command failed: the command's own error is elsewhere (pip's
 * "subprocess-exited-with-error" heads the build backend's output, whose exception is the error).
 */
const WRAPPER =
  /^(?:Error: )?(?:Command failed|Process completed)|exited with (?:exit )?code \d+|failed with exit code \d+|^(?:Error: )?Build failed because|^(?:subprocess-exited-with-error|metadata-generation-failed)$|^(?:Failed building wheel for|Could not build wheels for) /i;
/** A stack frame: "    at fn (file:3:7)", "    at file:3:7". */
const FRAME = /^\s*at (?:.*\((.+)\)|(.+))$/;
/** Python: '  File "/app/x.py", line 3, in <module>'. */
const PY_FRAME = /^\s*File "([^"]+)", line (\d+)/;
/** Node's first line for an uncaught error: "/abs/server.js:3" or "file:///abs/x.mjs:3". */
const NODE_HEADER = /^((?:file:\/\/)?\/\S+):(\d+)$/;

/** Where a stated error happened: its first frame in the project, else Python's last, else Node's header. */
function statedPlace(view: View): ErrorLocation | undefined {
  const { lines, i, paths } = view;
  const end = Math.min(lines.length, i + 1 + LOOK_AHEAD);
  for (let j = i + 1; j < end; j += 1) {
    const frame = FRAME.exec(lines[j]!);
    if (!frame) continue;
    const place = placeOn(frame[1] ?? frame[2]!, paths);
    if (place) return place;
  }
  let python: ErrorLocation | undefined;
  let node: ErrorLocation | undefined;
  for (let j = Math.max(0, i - LOOK_BEHIND); j < i; j += 1) {
    const py = PY_FRAME.exec(lines[j]!);
    if (py) {
      const place = paths.place(py[1]!, Number(py[2]));
      if (place && !inDependencies(place.file)) python = place;
      continue;
    }
    const header = NODE_HEADER.exec(lines[j]!.trim());
    if (header) {
      const place = paths.place(header[1]!, Number(header[2]));
      if (place && !inDependencies(place.file)) node = place;
    }
  }
  return python ?? node;
}

const stated: Rule = (view) => {
  const line = view.lines[view.i]!.trim();
  const m = STATED.exec(line) ?? INSPECTED.exec(line);
  if (m) {
    if (WRAPPER.test(m[1]!)) return null;
    // A parser's error names its place in its own message (Rollup, Babel): that is where it is.
    const own = placeInMessage(m[1]!, undefined, view.paths);
    const place = own && !inDependencies(own.file) ? own : statedPlace(view);
    return candidate(2, view, m[1]!, place);
  }
  const plain = PLAIN_ERROR.exec(line);
  if (!plain || WRAPPER.test(plain[1]!)) return null;
  return candidate(2, view, line, placeOn(plain[1]!, view.paths) ?? placeBelow(view, view.i, 3));
};

// Rank 3: a package manager's error.

/** npm's lines that are about npm, not the error. */
const NPM_GENERIC =
  /^(?:$|(?:code|errno|syscall|path|command|workspace|location|signal|cwd|argv|node|npm|os|file|type) |command failed$|404\s*$|A complete log of this run|For a full report see|Log files were not written|\S*_logs\/|Exit status|Failed at the|This is probably not a problem|Lifecycle script|[\w@/.-]+@\S+ \w+: `)/i;
const NPM = /^npm (?:ERR!|error)(?: (.*))?$/;
const PNPM = /^\s*(ERR_PNPM_\w+)\s+(.+)$/;
/** Yarn 1: "error Couldn't find any versions…" (no colon after "error"). */
const YARN = /^error ([^:].*)$/;
/** Yarn 2+: "➤ YN0035: │ x: The remote server failed…"; only the codes that are errors. */
const YARN_BERRY = /^➤ YN(0001|0009|0018|0028|0035|0082): (?:│ )?(.+)$/;

const packageManager: Rule = (view) => {
  const line = view.lines[view.i]!;
  const npm = NPM.exec(line);
  if (npm) {
    const rest = (npm[1] ?? '').trim();
    return NPM_GENERIC.test(rest) ? null : candidate(3, view, rest);
  }
  const pnpm = PNPM.exec(line);
  if (pnpm) return candidate(3, view, `${pnpm[1]} ${pnpm[2]!.trim()}`);
  const yarn = YARN.exec(line.trim());
  if (yarn) return WRAPPER.test(yarn[1]!) ? null : candidate(3, view, yarn[1]!);
  const berry = YARN_BERRY.exec(line.trim());
  return berry ? candidate(3, view, `YN${berry[1]}: ${berry[2]}`) : null;
};

const RULES: readonly Rule[] = [
  afterHeader,
  esbuildError,
  esbuildTransform,
  tsc,
  webpack,
  failedToCompile,
  babel,
  goCompiler,
  phpError,
  hugoError,
  jekyllError,
  mkdocsError,
  stated,
  packageManager,
];

/**
 * Reads output lines as they come and keeps the best error line seen so far, with a window of
 * LOOK_BEHIND + LOOK_AHEAD lines around the line being read: memory stays bounded whatever the
 * command prints.
 */
export class FirstErrorScanner {
  readonly #paths: PathMap;
  #window: string[] = [];
  /** Index in #window of the next line to read. */
  #next = 0;
  readonly #best: (Candidate | undefined)[] = [undefined, undefined, undefined];
  /** With `all`: every tool error (rank 1), not only the first, so reading goes on to the end. */
  readonly #all: ToolErrorList | undefined;

  constructor(paths: ProjectPaths, options: { all?: boolean } = {}) {
    this.#paths = new PathMap(paths);
    if (options.all) this.#all = new ToolErrorList();
  }

  push(text: string): void {
    this.pushClean(clean(text));
  }

  /** push() for a line already cleaned (colour codes and control characters removed). */
  pushClean(line: string): void {
    if (this.#best[0] && !this.#all) return;
    this.#window.push(line.length > MAX_SCANNED_LINE ? '' : line);
    while (this.#window.length - this.#next > LOOK_AHEAD) this.#read(this.#next++);
    if (this.#next > LOOK_BEHIND) {
      this.#window.splice(0, this.#next - LOOK_BEHIND);
      this.#next = LOOK_BEHIND;
    }
  }

  /** The best error line of everything pushed so far (the last lines are read with less below them). */
  result(): FirstError | null {
    while (this.#next < this.#window.length && (!this.#best[0] || this.#all)) this.#read(this.#next++);
    const best = this.#best[0] ?? this.#best[1] ?? this.#best[2];
    if (!best) return null;
    const { rank: _rank, tool: _tool, ...found } = best;
    return found;
  }

  /** Every tool error read so far (needs `all`), the first result() names flagged primary. */
  errors(): Pick<BuildError, 'errors' | 'errorCount'> {
    const first = this.result();
    return this.#all ? this.#all.list(first) : {};
  }

  #read(i: number): void {
    const line = this.#window[i]!;
    if ((this.#best[0] && !this.#all) || !MAY_STATE_ERROR.test(line)) return;
    const view: View = { lines: this.#window, i, paths: this.#paths };
    for (const rule of RULES) {
      const found = rule(view);
      if (!found) continue;
      this.#best[found.rank - 1] ??= found;
      if (found.rank === 1 && found.tool) this.#all?.add(found);
      return;
    }
    const lint = this.#all && eslintError(view);
    if (lint) this.#all!.add(lint);
  }
}

/**
 * Codes tools put before their message: tsc's "error TS2322:", Angular's "error NG8001:" (and
 * "TS2322:" under its esbuild "✘ [ERROR]"), Rolldown's "[UNRESOLVED_IMPORT]".
 */
const CODE_PREFIX = /^(?:(?:error )?((?:TS|NG)\d{4,5}): |\[([A-Z][A-Z0-9_]{2,40})\]:? (?:Error: )?)/;
/** A plugin or tool tag before a message: "[vite]: ", "[plugin vite:esbuild] ". */
const TAG_PREFIX = /^\[[\w:. -]{1,60}\]:? /;

/**
 * The distinct tool errors of one output, in the order printed: the first MAX_LISTED_TOOL_ERRORS
 * kept, every one counted. Distinct means another place or another message: a tool that states the
 * same error twice (a header and its line, a summary at the end) lists it once.
 */
class ToolErrorList {
  readonly #errors: ToolError[] = [];
  readonly #seen = new Set<string>();
  #count = 0;

  add(found: Candidate & { code?: string }): void {
    let message = found.firstLine;
    let code = found.code;
    const m = CODE_PREFIX.exec(message);
    if (m) {
      code ??= m[1] ?? m[2];
      message = message.slice(m[0].length);
    }
    while (TAG_PREFIX.test(message)) message = message.replace(TAG_PREFIX, '');
    const at = found.location;
    const key = `${at?.file ?? ''}:${at?.line ?? ''}:${at?.column ?? ''}\0${message}`;
    if (this.#seen.has(key)) return;
    // The same error without its place (webpack's summary, a header's repeat) is not another one.
    if (!at && this.#errors.some((e) => e.message === message)) return;
    this.#seen.add(key);
    this.#count += 1;
    if (this.#errors.length >= MAX_LISTED_TOOL_ERRORS) return;
    this.#errors.push({
      ...(at ? { file: at.file, line: at.line, ...(at.column ? { column: at.column } : {}) } : {}),
      ...(code ? { code } : {}),
      message,
      tool: found.tool!,
    });
  }

  /** The errors with the one `first` states flagged primary (it is the first when none matches). */
  list(first: FirstError | null): Pick<BuildError, 'errors' | 'errorCount'> {
    if (this.#errors.length === 0) return {};
    const same = (e: ToolError) =>
      first !== null &&
      first.firstLine.includes(e.message) &&
      e.file === first.location?.file &&
      e.line === first.location?.line;
    const index = Math.max(0, this.#errors.findIndex(same));
    const errors = this.#errors.map((e, i) => (i === index ? { ...e, primary: true } : { ...e }));
    return { errors, errorCount: this.#count };
  }
}

/** ESLint's stylish format: the file on a line of its own, then "  3:7  error  Message  rule-id" under it. */
const ESLINT = /^\s+(\d+):(\d+)\s+(?:error|Error:)\s+(.+?)(?:\s{2,}(@?[\w/-]+))?$/;
function eslintError(view: View): (Candidate & { code?: string }) | null {
  const m = ESLINT.exec(view.lines[view.i]!);
  if (!m) return null;
  for (let j = view.i - 1; j >= 0; j -= 1) {
    const line = view.lines[j]!;
    if (ESLINT.test(line) || /^\s+\d+:\d+\s+(?:warning|Warning:)\s/.test(line)) continue;
    const place = view.paths.place(line.trim(), Number(m[1]), Number(m[2]));
    if (!place || inDependencies(place.file)) return null;
    return {
      ...candidate(1, view, m[3]!, place, 'eslint'),
      ...(m[4] ? { code: m[4] } : {}),
    };
  }
  return null;
}

/** The first error line of a finished command's output (see FirstErrorScanner). */
export function findFirstError(lines: Iterable<string>, paths: ProjectPaths): FirstError | null {
  const scanner = new FirstErrorScanner(paths);
  for (const line of lines) scanner.push(line);
  return scanner.result();
}

/**
 * Everything a failure needs from a command's output, collected while it runs: the first error line
 * and its place, and the last ERROR_TAIL_LINES lines (colour codes removed, project paths relative,
 * runs of blank lines kept as one). Pass `onLine` to the command; read `evidence()` when it failed.
 */
export class OutputEvidence {
  readonly #scanner: FirstErrorScanner;
  readonly #paths: PathMap;
  readonly #tail: string[] = [];
  readonly #size: number;
  /** A blank line was printed after the last kept one: kept once something follows it. */
  #blank = false;

  constructor(paths: ProjectPaths, tailLines: number = ERROR_TAIL_LINES) {
    this.#scanner = new FirstErrorScanner(paths, { all: true });
    this.#paths = new PathMap(paths);
    this.#size = tailLines;
  }

  /** Give it every output line, in order. */
  readonly onLine = (line: { text: string }): void => {
    const text = clean(line.text);
    this.#scanner.pushClean(text);
    if (text === '') {
      this.#blank = this.#tail.length > 0;
      return;
    }
    if (this.#blank) this.#keep('');
    this.#blank = false;
    this.#keep(text);
  };

  #keep(text: string): void {
    this.#tail.push(text);
    if (this.#tail.length > this.#size) this.#tail.shift();
  }

  evidence(): CommandEvidence {
    const tail = this.#tail.map((line) => cut(this.#paths.text(line)));
    if (tail[0] === '') tail.shift();
    const found = this.#scanner.result();
    return { ...(found ? found : {}), ...this.#scanner.errors(), tail };
  }
}
