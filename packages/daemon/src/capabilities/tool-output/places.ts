import type { BuildError } from '@forge/shared';

type ErrorLocation = NonNullable<BuildError['location']>;
/** What turns a printed path into a project file (first-error.ts's PathMap). */
interface PathMap {
  place(file: string, line: number, column?: number): ErrorLocation | undefined;
}

/**
 * How tools print where an error is, read in one place for both readers of tool output: the first
 * error of a failed step (first-error.ts) and ScanBot's rules (capabilities/diagnose).
 */

/** esbuild, Angular: "    src/a.ts:3:7:" on a line of its own (0-based column). */
export const ESBUILD_PLACE = /^\s+(\S.*?):(\d+):(\d+):$/;
/** Rollup, Svelte: "src/App.svelte (5:40)" (Rollup's column starts at 0, after "RollupError"). */
export const PAREN_PLACE = /([^\s()'"`[\]]+\.\w+) \((\d+):(\d+)\)/;
/** Most tools: "src/a.ts:3:7", "/abs/a.js:3", "file:///abs/a.mjs:3:7" (an extension is required). */
export const COLON_PLACE = /((?:file:\/\/)?[^\s:()'"`[\]]*[^\s:()'"`[\]/]\.[A-Za-z]\w*):(\d+)(?::(\d+))?/;
/** A line naming only a file, as Next.js, Turbopack and svelte-check print it: "./app/page.tsx:3:7". */
export const FILE_REF = /^(\.{0,2}\/?[^\s:]+\.\w+)(?::(\d+):(\d+))?$/;
/** Babel: "SyntaxError: /abs/src/App.js: Unexpected token, expected "," (2:37)" (0-based column). */
export const BABEL_SYNTAX = /SyntaxError: (\S+?\.\w+): (.{1,400}) \((\d+):(\d+)\)\s*$/;

/** Babel's place in its own message, or undefined. */
export function babelPlace(message: string, paths: PathMap): ErrorLocation | undefined {
  const m = BABEL_SYNTAX.exec(message);
  return m ? paths.place(m[1]!, Number(m[3]), Number(m[4]) + 1) : undefined;
}

/** "file (line:column)" on a line: Rollup's column counted from 1 as every other tool's. */
export function parenPlace(line: string, paths: PathMap): ErrorLocation | undefined {
  const m = PAREN_PLACE.exec(line);
  if (!m) return undefined;
  const base = /RollupError/.test(line) ? 1 : 0;
  return paths.place(m[1]!, Number(m[2]), Number(m[3]) + base);
}

/**
 * The place a parser names in its own message (Babel, Rollup), or on the line above it as
 * svelte-check prints it ("/abs/src/App.svelte:3:7" above its "Error: … (ts)").
 */
export function placeInMessage(
  line: string,
  above: string | undefined,
  paths: PathMap,
): ErrorLocation | undefined {
  const stated = babelPlace(line, paths) ?? parenPlace(line, paths);
  if (stated) return stated;
  const ref = above === undefined ? null : FILE_REF.exec(above.trim());
  return ref?.[2] ? paths.place(ref[1]!, Number(ref[2]), Number(ref[3])) : undefined;
}
