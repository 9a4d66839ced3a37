import type { Diagnosis } from '@forge/shared';
import { at, placeText, type Context } from './context.ts';
import type { ErrorLocation } from '../tool-output/first-error.ts';
import { placeInMessage } from '../tool-output/places.ts';

/**
 * Errors in the project's code: syntax the parser could not read (esbuild, Rollup, Rolldown, Babel,
 * webpack, Node, tsc TS1xxx, Svelte and Vue compilers) and type errors (tsc, vue-tsc, svelte-check,
 * Next's type check), with the place the tool names.
 */

/** What parsers say. Bounded (no unbounded `.*` between two parts), read only on short lines. */
const SYNTAX =
  /\b(?:SyntaxError|Syntax error|PARSE_ERROR|Parse error|Unexpected token|Unexpected character|Unexpected end of (?:input|file)|Unexpected (?:keyword|identifier|string|number)|Unterminated (?:string|template|regular expression|regexp|comment|JSX contents)|Invalid or unexpected token|Expected [^\n]{1,80}? but found|Expression expected|Missing semicolon|Unexpected "[^"]{1,20}")/;
/** An error line (the syntax text alone, in a warning or a source excerpt, does not count). */
const ERRORISH =
  /error|✘|\[ERROR\]|\[PARSE_ERROR\]|^SyntaxError|Module parse failed|\] Unexpected|Transform failed|^\S+:\d+:\d+:|failed|^\s*\[(?:[\w:-]+)\]/i;

/** tsc errors: "src/a.ts(3,7): error TS2322: …", "src/a.ts:3:7 - error TS2322: …", Angular's "✘ [ERROR] TS2322: …". */
const TSC = /\b(?:error )?TS(\d{4,5}): (.{1,400})$/;
/** TS1xxx codes that are not about syntax (module and emit settings): type-level, not syntax. */
const TS1_NOT_SYNTAX = new Set([
  1192, 1202, 1203, 1208, 1259, 1261, 1286, 1343, 1371, 1375, 1378, 1479, 1484, 1149,
]);
const isSyntaxCode = (code: number) => code >= 1000 && code < 2000 && !TS1_NOT_SYNTAX.has(code);

interface Found {
  index: number;
  message: string;
  tsCode?: number;
}

function tscErrors(ctx: Context): Found[] {
  const found: Found[] = [];
  ctx.lines.forEach((line, index) => {
    const m = TSC.exec(line);
    if (m && /error|\[ERROR\]|✘/.test(line))
      found.push({ index, message: m[2]!.trim(), tsCode: Number(m[1]) });
  });
  return found;
}

/** Where a found error points, in the project (not in a dependency). */
function placeOf(ctx: Context, found: Found): ErrorLocation | undefined {
  const place = ctx.locate(found.index) ?? placeOnLine(ctx, found.index);
  return place && !place.file.includes('node_modules/') ? place : undefined;
}

/**
 * The place a parser names in its own message, where first-error.ts reads only stack frames: Babel's
 * "SyntaxError: /abs/src/App.js: Unexpected token (3:4)" (0-based column), Rollup's
 * "RollupError: src/main.js (1:14): Expression expected", and svelte-check's "/abs/src/App.svelte:3:7"
 * on the line above its "Error: … (ts)".
 */
function placeOnLine(ctx: Context, i: number): ErrorLocation | undefined {
  return placeInMessage(ctx.lines[i]!, i > 0 ? ctx.lines[i - 1] : undefined, ctx.paths);
}

/** A Node-thrown SyntaxError (the runtime, not a bundler) in code outside the project's sources. */
const RUNTIME_SYNTAX =
  /^(?:\S+ )?SyntaxError: (?:Unexpected token|Invalid regular expression flags|Unexpected identifier|missing \) after|Unexpected reserved word|Private field)/;

/** SYNTAX_ERROR, or NODE_VERSION_MISMATCH when Node itself cannot parse a dependency's modern syntax. */
export function syntaxError(ctx: Context): Diagnosis | null {
  let hit: Found | undefined;
  const ts = tscErrors(ctx).find((f) => isSyntaxCode(f.tsCode!));
  for (const [index, line] of ctx.lines.entries()) {
    if (line.length > 600 || !SYNTAX.test(line) || !ERRORISH.test(line)) continue;
    hit = { index, message: line.trim() };
    break;
  }
  if (ts && (!hit || ts.index <= hit.index)) hit = ts;
  if (!hit) return null;
  let place = placeOf(ctx, hit);
  const message = cleanMessage(ctx, hit);
  if (!place && RUNTIME_SYNTAX.test(hit.message)) {
    // Node names the file it could not parse on a line of its own above ("file:///abs/build.mjs:3"):
    // a project file there is the place, a dependency's is the case below.
    const above = nodeSourceAbove(ctx, hit.index);
    if (above && !above.file.includes('node_modules/')) place = above;
  }
  const runtime = !place && RUNTIME_SYNTAX.test(hit.message);
  if (runtime) {
    // Node could not parse a file of a dependency: newer syntax than this Node reads, as a rule.
    const node = ctx.input.blueprint?.node;
    const current = (node?.resolved?.version ?? node?.current ?? process.versions.node).replace(/^v/, '');
    const source = nodeSourceAbove(ctx, hit.index);
    const what = source
      ? `${placeText(source)} (${message})`
      : `code the ${ctx.input.step ?? 'build'} runs (${message})`;
    // Not when the build ran on a Node DependencyBot provided for the project's range.
    if ((node?.satisfied === false && !node.resolved) || ctx.input.error.probableCause) {
      return {
        code: 'NODE_VERSION_MISMATCH',
        summary: `Node ${current} cannot parse ${what}; the project asks for Node ${node?.wanted ?? 'a newer version'}.`,
        ...(node ? { file: node.file } : {}),
        suggestion: `Run Forge with a Node that satisfies ${node?.wanted ?? "the project's engines"}, or use versions of the dependencies that support Node ${current}.`,
      };
    }
    if (source?.file.includes('node_modules/')) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source.file)?.[1];
      return {
        code: 'SYNTAX_ERROR',
        summary: `Node ${current} cannot parse ${what}.`,
        suggestion: `${pkg ?? 'The dependency'} uses JavaScript this Node does not read: use an earlier version of it, or run Forge with a newer Node.`,
        ...(pkg ? { subjects: [pkg] } : {}),
      };
    }
  }
  return {
    code: 'SYNTAX_ERROR',
    summary: place ? `Syntax error in ${placeText(place)}: ${message}` : `Syntax error: ${message}`,
    ...at(place),
    suggestion: place
      ? `Fix the code at ${placeText(place)} (a missing bracket, quote or comma is the usual cause), then build again.`
      : 'Find the file the message names and fix the code there, then build again.',
  };
}

/** The file Node names above its SyntaxError ("file:///abs/node_modules/x/index.js:2"), dependencies included. */
function nodeSourceAbove(ctx: Context, i: number): ErrorLocation | undefined {
  for (let j = i - 1; j >= Math.max(0, i - 8); j -= 1) {
    const m = /^((?:file:\/\/)?\/\S+):(\d+)$/.exec(ctx.lines[j]!.trim());
    if (m) return ctx.paths.place(m[1]!, Number(m[2]));
  }
  return undefined;
}

/** TYPE_ERROR: the type check failed (tsc, vue-tsc, svelte-check, Next's check). */
export function typeError(ctx: Context): Diagnosis | null {
  const errors = tscErrors(ctx).filter((f) => !isSyntaxCode(f.tsCode!));
  let hit: Found | undefined = errors[0];
  let count = errors.length;
  if (!hit) {
    // Next.js: "Type error: Type 'number' is not assignable…"; svelte-check: "Error: … (ts)".
    const index = ctx.find(/^(?:Type error: .{1,400}|Error: .{1,400} \((?:ts|js)\))$/);
    if (index === -1) return null;
    hit = { index, message: ctx.lines[index]!.trim().replace(/^(?:Type error|Error): /, '') };
    count = 1;
  }
  const place = placeOf(ctx, hit);
  const more = count > 1 ? ` (and ${count - 1} more type error${count > 2 ? 's' : ''})` : '';
  const code = hit.tsCode ? ` (TS${hit.tsCode})` : '';
  return {
    code: 'TYPE_ERROR',
    summary: `${place ? `Type error in ${placeText(place)}` : 'Type error'}: ${cleanMessage(ctx, hit)}${code}${more}`,
    ...at(place),
    suggestion: place
      ? `Fix the types at ${placeText(place)}; if the build should not type-check, take tsc out of the build script (vite build alone does not check types).`
      : 'Fix the type errors the check lists, or take the type check out of the build script.',
  };
}

/** The message without its place prefix and with project paths relative ("/abs/src/a.ts:1:2: ERROR: x" → "x"). */
function cleanMessage(ctx: Context, found: Found): string {
  let text = ctx.paths.text(found.message).replace(/\s*\[plugin [^\]]{1,80}\]/g, '');
  if (found.tsCode === undefined) {
    // What goes before the message: "✘ [ERROR]", "[PARSE_ERROR] Error:", "[plugin x]", "src/a.svelte (5:40):", "src/a.ts:1:2: ERROR:".
    const prefix =
      /^(?:(?:✘|×)\s*\[ERROR\]\s*|\[[^\]]{1,80}\]\s*|(?:\w*Error|ERROR): |[^\s:()]+\.\w+ \(\d+:\d+\):?\s*|[^\s:()]+\.\w+:(?:\d+:\d+:?)?\s+)/;
    for (let i = 0; i < 6 && prefix.test(text); i += 1) text = text.replace(prefix, '');
    // Babel repeats its place at the end: "… (2:37)".
    text = text.replace(/ \(\d+:\d+\)$/, '');
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** UNKNOWN: the first error line (or the message) and its place; the whole log is a command away. */
export function unknown(ctx: Context): Diagnosis {
  const { error } = ctx.input;
  const found = ctx.first();
  const text = found?.firstLine ?? error.message;
  const place = found?.location ?? error.location;
  return {
    code: 'UNKNOWN',
    summary: place ? `${text} (${placeText(place)})` : text,
    ...at(place),
    suggestion:
      "Forge does not recognise this failure: read the whole output with forge logs <build> (or the build's log in the dashboard), starting from the first error.",
  };
}
