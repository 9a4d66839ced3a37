import fs from 'node:fs';
import path from 'node:path';
import type { Diagnosis } from '@forge/shared';
import { at, listText, type Context, type Place } from './context.ts';
import { isEnvTemplate } from '../scan/secrets.ts';

/**
 * MISSING_ENV: the app (its build, its server, its tests) stopped because an environment variable it
 * needs was not given, or was refused. Claimed only when the output names the variable, in one of
 * these ways:
 *
 * - the message says it is about the environment: "Missing environment variable: X", "Environment
 *   variable X is required", "X environment variable must be set", "process.env.X is not set";
 * - a validator's report: t3-env/zod ("❌ Invalid environment variables: …", zod 3 and 4), envalid
 *   ("Missing environment variables:" then "X: undefined"), Python's `KeyError: 'X'` under an
 *   `os.environ[…]` line;
 * - a plainer sentence ("SESSION_SECRET must be set", "X is not defined", "X is required") only when
 *   the files confirm X is an environment variable: an env template (.env.example, .env.sample…)
 *   names it, a project file the error's stack points at reads it from the environment, or the
 *   forge config sets it. A variable named only in .env.example is never enough.
 *
 * A real `.env` is never read: only the names in templates, never a value from anywhere.
 */

/** How programs name environment variables: SESSION_SECRET, VITE_API_URL, DATABASE_URL, PORT. */
const NAME = '[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*';
const QUOTE = '["\'`]?';
const ENV_WORD = '(?:[Ee]nv(?:ironment)?[ _-]?[Vv]ar(?:iable)?s?|ENV(?:IRONMENT)? VAR(?:IABLE)?)';
const MISSING_WORDS =
  '(?:is |was |are )?(?:not (?:set|defined|provided|found|present|configured)|missing|required|undefined|empty|must be (?:set|defined|provided|configured))';

/** Messages that say themselves that X is an environment variable. */
const STATED: RegExp[] = [
  // "Missing environment variable: X", "Missing required env var "X"", "Required environment variable X".
  new RegExp(
    `\\b(?:[Mm]issing|MISSING|[Rr]equired|[Uu]ndefined|[Uu]nset|[Nn]o)\\s+(?:required\\s+)?${ENV_WORD}\\s*[:=]?\\s*${QUOTE}(${NAME})\\b`,
  ),
  // "Environment variable X is required", "env var X not set".
  new RegExp(`\\b${ENV_WORD}\\s+${QUOTE}(${NAME})${QUOTE}\\s+${MISSING_WORDS}`),
  // "JWT_SECRET environment variable must be set".
  new RegExp(`(?:^|[\\s:("'\`])${QUOTE}(${NAME})${QUOTE}\\s+${ENV_WORD}\\s+${MISSING_WORDS}`),
  // "process.env.X is not set", "import.meta.env.X is undefined".
  new RegExp(`\\b(?:process\\.env|import\\.meta\\.env)\\.(${NAME})\\s+${MISSING_WORDS}`),
  // "X is not set in the environment", "X must be set in your .env".
  new RegExp(
    `(?:^|[\\s:("'\`])${QUOTE}(${NAME})${QUOTE}\\s+${MISSING_WORDS}\\s+in (?:the |your )?(?:environment|env\\b|\\.env)`,
  ),
];

/** Plainer sentences: X is an environment variable only when the files confirm it. */
const PLAIN = new RegExp(
  `(?:^|[\\s:("'\`[])${QUOTE}(${NAME})${QUOTE}\\s+(?:must be (?:set|defined|provided|configured)|is (?:not (?:set|defined|configured|provided)|required|missing|undefined|empty))\\b`,
);
/** A reference to an undeclared global, not an environment read: never this rule's. */
const REFERENCE_ERROR = /\bReferenceError\b/;
/**
 * A line that only warns and goes on ("[sentry] Warning: env var SENTRY_AUTH_TOKEN is not set, skipping
 * the upload"): not what stopped the step, so never the cause.
 */
const NOT_FATAL =
  /\bwarn(?:ing)?\b|\bskipp(?:ing|ed)\b|\bfalling back\b|\bdefaulting\b|\busing (?:a |the )?default\b|\bignor(?:ed|ing)\b/i;

interface Found {
  /** Variables the output says are not set. */
  missing: string[];
  /** Variables whose value was refused (t3-env/zod, envalid's "Invalid"). */
  invalid: string[];
  /** Line of the output that says so. */
  index: number;
  /** The output's own words, quoted in the summary (never a line that may echo a value). */
  quote: string | null;
  /** The message does not say "environment" itself: the files must confirm it. */
  needsConfirmation: boolean;
  /** Who said it, when a validator did ("t3-env", "envalid"). */
  by?: string;
}

const trimQuote = (line: string): string => {
  const text = line.trim().replace(/^(?:\[error\]|\w*Error:|error:?|✖|×|❌)\s*/i, '');
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
};

/** t3-env's report: zod 3 `{ X: [ 'Required' ] }` (one line or several), zod 4 issues with `path: [ 'X' ]`. */
function t3Env(ctx: Context): Found | null {
  const start = ctx.find(/Invalid environment variables:/);
  if (start === -1) return null;
  if (/^\s*(?:\S+\s+)?(?:Missing|Invalid) environment variables:\s*$/.test(ctx.lines[start]!)) return null;
  const missing: string[] = [];
  const invalid: string[] = [];
  const end = Math.min(ctx.lines.length, start + 80);
  let path: string | null = null;
  for (let i = start; i < end; i += 1) {
    const line = ctx.lines[i]!;
    if (i > start && /^(?:\S.*)?Error: |^file:\/\/|^\s+at /.test(line)) break;
    // zod 3 flattened field errors: "DATABASE_URL: [ 'Required' ]".
    for (const m of line.matchAll(new RegExp(`\\b(${NAME}): \\[ '([^']*)'`, 'g'))) {
      (m[2] === 'Required' ? missing : invalid).push(m[1]!);
    }
    // zod 4 issues: "path: [ 'DATABASE_URL' ]", then "message: 'Invalid input: expected string, received undefined'".
    const p = new RegExp(`\\bpath: \\[ '(${NAME})' \\]`).exec(line);
    if (p) path = p[1]!;
    const message = /\bmessage: '([^']*)'/.exec(line);
    if (message && path) {
      (/received undefined|^Required$/.test(message[1]!) ? missing : invalid).push(path);
      path = null;
    }
  }
  return validatorReport('t3-env', missing, invalid, start);
}

/** A validator's report, when it named any variable (each once). */
function validatorReport(by: string, missing: string[], invalid: string[], index: number): Found | null {
  if (missing.length + invalid.length === 0) return null;
  return {
    missing: [...new Set(missing)],
    invalid: [...new Set(invalid)],
    index,
    quote: null,
    needsConfirmation: false,
    by,
  };
}

/** envalid's report: "Missing environment variables:" / "Invalid environment variables:", then "    X: …". */
function envalid(ctx: Context): Found | null {
  const start = ctx.find(/^\s*(?:Missing|Invalid) environment variables:\s*$/);
  if (start === -1) return null;
  const missing: string[] = [];
  const invalid: string[] = [];
  let list: string[] = missing;
  for (let i = start; i < Math.min(ctx.lines.length, start + 60); i += 1) {
    const line = ctx.lines[i]!;
    const header = /^\s*(Missing|Invalid) environment variables:\s*$/.exec(line);
    if (header) {
      list = header[1] === 'Missing' ? missing : invalid;
      continue;
    }
    const entry = new RegExp(`^\\s{2,}(${NAME}): `).exec(line);
    if (entry) list.push(entry[1]!);
    else if (line.trim() !== '') break;
  }
  return validatorReport('envalid', missing, invalid, start);
}

/**
 * An app's own report under a heading about the environment ("Invalid env provided. The following
 * variables are missing or invalid:"), one variable a line ("- API_URL: Required"): zod's flattened
 * field errors as many templates print them. The names may be the schema's keys rather than the
 * variables' (see `readAs`).
 */
function envListing(ctx: Context): Found | null {
  const start = ctx.find(
    /\b(?:[Ii]nvalid|[Mm]issing)\b.{0,30}\b(?:env|ENV|[Ee]nvironment)\b(?! variables?:\s*$)/,
  );
  if (start === -1) return null;
  const missing: string[] = [];
  const invalid: string[] = [];
  const entry = new RegExp(`^\\s*[-*•]\\s*(${NAME})\\s*:\\s*(.+)$`);
  for (let i = start + 1; i < Math.min(ctx.lines.length, start + 30); i += 1) {
    const m = entry.exec(ctx.lines[i]!);
    if (m) (/^Required\b|received undefined/.test(m[2]!.trim()) ? missing : invalid).push(m[1]!);
    else if (/^\s+at |^\S.*Error: /.test(ctx.lines[i]!)) break;
  }
  return validatorReport("the app's env check", missing, invalid, start);
}

/** Python: "KeyError: 'X'" where the traceback above reads os.environ. */
function pythonKeyError(ctx: Context): Found | null {
  for (let i = 0; i < ctx.lines.length; i += 1) {
    const m = new RegExp(`^KeyError: '(${NAME})'$`).exec(ctx.lines[i]!.trim());
    if (!m) continue;
    const above = ctx.lines.slice(Math.max(0, i - 8), i).join('\n');
    if (!/\bos\.environ\b|\benviron\[/.test(above)) continue;
    return { missing: [m[1]!], invalid: [], index: i, quote: ctx.lines[i]!.trim(), needsConfirmation: false };
  }
  return null;
}

/** A line that is the program's source shown above its error, not the error: `throw new Error('…')`. */
const SOURCE_ECHO = /\bthrow\b|\bnew Error\(|\bconsole\.\w+\(|\bif\s*\(|=>|;\s*$/;

/** A sentence of the output naming the variable: stated as an environment variable first, else plainly. */
function sentence(ctx: Context): Found | null {
  const candidates: { pattern: RegExp; needsConfirmation: boolean }[] = [
    ...STATED.map((pattern) => ({ pattern, needsConfirmation: false })),
    { pattern: PLAIN, needsConfirmation: true },
  ];
  for (const { pattern, needsConfirmation } of candidates) {
    let echo: Found | null = null;
    for (let i = 0; i < ctx.lines.length; i += 1) {
      const line = ctx.lines[i]!;
      if (line.length > 600 || REFERENCE_ERROR.test(line) || NOT_FATAL.test(line)) continue;
      const m = pattern.exec(line);
      // One word of capitals alone ("API is required") is too plain to be a variable's name.
      if (!m || (needsConfirmation && !m[1]!.includes('_') && m[1]!.length < 4)) continue;
      const found = { missing: [m[1]!], invalid: [], index: i, quote: trimQuote(line), needsConfirmation };
      if (!SOURCE_ECHO.test(line)) return found;
      echo ??= found;
    }
    if (echo) return echo;
  }
  return null;
}

/** Project-relative env templates of the app, its install folder and the root, and the names each documents. */
async function templates(ctx: Context): Promise<{ file: string; names: Set<string> }[]> {
  const found: { file: string; names: Set<string> }[] = [];
  for (const dir of [...new Set([ctx.appDir, ctx.installDir, '.'])]) {
    let entries: string[];
    try {
      entries = fs.readdirSync(ctx.abs(dir));
    } catch {
      continue;
    }
    for (const entry of entries.sort()) {
      const file = path.posix.join(dir, entry);
      if (!isEnvTemplate(file)) continue;
      const text = await ctx.readText(file, 256 * 1024);
      if (text === null) continue;
      const names = new Set<string>();
      // "NAME=…", "export NAME=…", and a commented "# NAME=" that documents an optional one.
      for (const m of text.matchAll(/^[ \t]*#?[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*=/gm)) {
        names.add(m[1]!);
      }
      found.push({ file, names });
    }
  }
  return found;
}

/** The project files the error's stack names (not dependencies'), nearest first. */
function framesNear(ctx: Context, index: number): Place[] {
  const places: Place[] = [];
  for (let i = Math.max(0, index - 4); i < Math.min(ctx.lines.length, index + 14); i += 1) {
    const line = ctx.lines[i]!;
    const node = /((?:file:\/\/)?\/[^\s():'"]+):(\d+)(?::(\d+))?/.exec(line);
    const python = /File "([^"]+)", line (\d+)/.exec(line);
    const hit = python ?? node;
    if (!hit) continue;
    const place = ctx.paths.place(hit[1]!, Number(hit[2]), hit[3] ? Number(hit[3]) : undefined);
    if (place && !place.file.includes('node_modules/') && !places.some((p) => p.file === place.file))
      places.push(place);
  }
  return places;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether the project file reads `name` from the environment: process.env.X, import.meta.env.X,
 * `const { X } = process.env`, os.environ["X"], Deno.env.get("X"), or a helper of its own named for
 * the environment called with the name (`env('X')`, `getEnv("X")`, `requireEnv('X')`).
 */
async function readsEnv(ctx: Context, file: string, name: string): Promise<boolean> {
  const text = await ctx.readText(file, 4 * 1024 * 1024);
  if (text === null) return false;
  return envRead(name).test(text);
}

/** How code reads the variable `name`: process.env.X, import.meta.env.X, env['X'], os.environ['X']… */
function envRead(name: string): RegExp {
  const n = escape(name);
  return new RegExp(
    `(?:process\\.env|import\\.meta\\.env|Bun\\.env|\\benv)\\s*(?:\\.\\s*${n}\\b|\\[\\s*["'\`]${n}["'\`]\\s*\\])|\\b${n}\\b[^\\n]{0,40}=\\s*(?:process\\.env|import\\.meta\\.env)\\b|(?:os\\.environ|os\\.getenv|getenv|Deno\\.env\\.get)\\s*[[(.]\\s*(?:get\\(\\s*)?["']${n}["']|\\{[^}]{0,400}\\b${n}\\b[^}]{0,400}\\}\\s*=\\s*process\\.env\\b|\\b\\w*[Ee]nv\\w*\\(\\s*["'\`]${n}["'\`]`,
  );
}

/** Project files looked through for where a variable is read, at most (node_modules and outputs never). */
const MAX_READ_SCAN = 2_000;
const CODE_FILE = /\.(?:[cm]?[jt]sx?|vue|svelte|astro|py)$/;
const NOT_SOURCE = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  'out',
  '.next',
  '.nuxt',
  '.output',
  'coverage',
]);

/**
 * Where the code reads `name`: the first line that reads it in a file the error's stack names, else
 * in the project's source files (a bounded walk). The place a developer opens to see what it is for.
 */
function readPlace(ctx: Context, name: string, frames: readonly Place[]): Promise<Place | null> {
  return firstLine(ctx, envRead(name), frames);
}

/** A key of an object filled from the environment under another name: `API_URL: process.env.NEXT_PUBLIC_API_URL`. */
const keyRead = (key: string): RegExp =>
  new RegExp(
    `(?:^|[\\s{,])["']?${escape(key)}["']?\\s*:\\s*(?:process\\.env|import\\.meta\\.env)(?:\\.(${NAME})\\b|\\[\\s*["'\`](${NAME})["'\`]\\s*\\])`,
  );

/**
 * The variable a validator's key stands for: the app fills its schema's `API_URL` from
 * process.env.NEXT_PUBLIC_API_URL, so NEXT_PUBLIC_API_URL is what must be set. The key itself when the
 * code reads it under its own name or no line maps it.
 */
async function readAs(ctx: Context, key: string, frames: readonly Place[]): Promise<string> {
  const pattern = keyRead(key);
  const place = await firstLine(ctx, pattern, frames);
  if (!place) return key;
  const text = (await ctx.readText(place.file, 4 * 1024 * 1024)) ?? '';
  const m = pattern.exec(text.split('\n')[(place.line ?? 1) - 1] ?? '');
  return m?.[1] ?? m?.[2] ?? key;
}

/** Frames of the app's own source: not a build's output (.next, dist), which the walk below skips too. */
const inSource = (frames: readonly Place[]): Place[] =>
  frames.filter((f) => !f.file.split('/').some((part) => NOT_SOURCE.has(part)));

/**
 * The first line matching `pattern` in a file the error's stack names, else in the project's source
 * files (a bounded walk, node_modules and build outputs never).
 */
async function firstLine(ctx: Context, pattern: RegExp, frames: readonly Place[]): Promise<Place | null> {
  const lineIn = async (file: string): Promise<Place | null> => {
    const text = await ctx.readText(file, 4 * 1024 * 1024);
    if (text === null) return null;
    const lines = text.split('\n');
    const i = lines.findIndex((l) => pattern.test(l));
    return i < 0 ? null : { file, line: i + 1 };
  };
  for (const frame of inSource(frames)) {
    const found = await lineIn(frame.file);
    if (found) return found;
  }
  let seen = 0;
  const walk = async (dir: string): Promise<Place | null> => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(ctx.projectDir, dir), { withFileTypes: true });
    } catch {
      return null;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (seen >= MAX_READ_SCAN) return null;
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isFile() && CODE_FILE.test(e.name)) {
        seen += 1;
        const found = await lineIn(rel);
        if (found) return found;
      }
    }
    for (const e of entries) {
      if (!e.isDirectory() || NOT_SOURCE.has(e.name) || e.name.startsWith('.')) continue;
      const found = await walk(dir ? `${dir}/${e.name}` : e.name);
      if (found) return found;
    }
    return null;
  };
  return walk('');
}

/** The project's forge config file (the plan's decision), if it has one. */
function forgeConfigFile(ctx: Context): string | null {
  const decision = ctx.input.blueprint?.decisions.findLast(
    (d) => d.field === 'forgeConfig' && d.value !== 'ignored',
  );
  return decision?.file ?? null;
}

/** What the step was, as a sentence starts: "The preview", "The build". */
function stepText(ctx: Context): string {
  switch (ctx.input.step) {
    case 'preview':
      return "The app's server";
    case 'install':
      return 'The install';
    case 'test':
      return 'The tests';
    default:
      return 'The build';
  }
}

/** MISSING_ENV: an environment variable the app needs and was not given (or whose value it refused). */
export async function missingEnv(ctx: Context): Promise<Diagnosis | null> {
  const found = t3Env(ctx) ?? envalid(ctx) ?? envListing(ctx) ?? pythonKeyError(ctx) ?? sentence(ctx);
  if (!found) return null;
  const planEnv = ctx.input.blueprint?.env ?? {};
  const docs = await templates(ctx);
  const documented = (name: string) => docs.find((d) => d.names.has(name))?.file;
  const frames = framesNear(ctx, found.index);
  if (found.by) {
    // A validator reports its schema's keys: name the variables the code fills them from.
    found.missing = await Promise.all(found.missing.map((k) => readAs(ctx, k, frames)));
    found.invalid = await Promise.all(found.invalid.map((k) => readAs(ctx, k, frames)));
  }
  const names = [...found.missing, ...found.invalid];
  if (found.needsConfirmation) {
    const name = names[0]!;
    let confirmed = documented(name) !== undefined || name in planEnv;
    for (const frame of frames) {
      if (confirmed) break;
      confirmed = await readsEnv(ctx, frame.file, name);
    }
    if (!confirmed) return null;
  }
  const config = forgeConfigFile(ctx);
  const configText = `the forge config${config ? ` (${config})` : ''}`;
  // Variables the plan gives the app: their value was refused, whatever the words ("must be set").
  const given = names.filter((n) => n in planEnv);
  const unset = found.missing.filter((n) => !given.includes(n));
  const refused = found.invalid.filter((n) => !given.includes(n));
  const template = names.map(documented).find(Boolean);
  const who = stepText(ctx);
  const plural = (list: string[]) => (list.length > 1 ? 's' : '');
  const parts: string[] = [];
  if (unset.length)
    parts.push(
      `${who === 'The tests' ? 'need' : 'needs'} the environment variable${plural(unset)} ${listText(unset)}, which ${unset.length > 1 ? 'are' : 'is'} not set`,
    );
  if (refused.length) parts.push(`refused the value of ${listText(refused)}`);
  if (given.length) parts.push(`refused the value of ${listText(given)}, which ${configText} sets`);
  // The output's own words, unless a variable has a value that the line might echo.
  const said = found.by
    ? ` (${found.by})`
    : found.quote && given.length === 0 && refused.length === 0
      ? `: "${found.quote}"`
      : '';
  const summary = `${who} ${parts.join(', and ')}${said}.`;

  const where = config
    ? config === 'package.json'
      ? '"env" of the "forge" key in package.json'
      : `"env" of the forge config (${config})`
    : '"env" of a forge config (forge.config.json)';
  // Where the code reads the variable (what a developer opens to see what it is for), else the file
  // that documents it, else the project file the error points at.
  const read = await readPlace(ctx, names[0]!, frames);
  const readAt = read ? ` ${read.file}:${read.line} reads ${names[0]} from the environment.` : '';
  const doc = `${readAt}${template ? ` ${template} documents ${names.length > 1 ? 'them' : 'it'}.` : ''}`;
  const advice: string[] = [];
  if (unset.length)
    advice.push(
      `Set ${listText(unset)} in the ${where}: { "env": { ${unset.map((n) => `"${n}": "…"`).join(', ')} } }.`,
    );
  if (refused.length)
    advice.push(
      `Give ${listText(refused)} a value the app accepts in the ${where} (the one it got came with the project, e.g. a committed .env).`,
    );
  if (given.length)
    advice.push(
      `Change ${listText(given)} in ${configText} to a value the app accepts (the output says what it expects).`,
    );
  const suggestion = `${advice.join(' ')}${doc} Forge passes none of the daemon's own variables to builds. Use values meant for builds and previews, not production secrets: the config travels with the upload, and a real secret is never committed.`;
  const place = read ?? (template ? { file: template } : frames[0]);
  return {
    code: 'MISSING_ENV',
    summary,
    ...at(place),
    suggestion,
    subjects: names,
  };
}
