import type { Diagnosis } from '@forge/shared';
import { REPAIR_HINT, type Context } from './context.ts';

/**
 * MODULE_FORMAT_MISMATCH: Node ran a CommonJS file as an ES module. A package.json with
 * "type": "module" makes every .js file under it ESM, and a script written with require(), module,
 * exports or __dirname stops at its first use: "ReferenceError: require is not defined in ES module
 * scope". Node names the file (its first stack frame, or the `file:///…:line` above the source line)
 * and the package.json. RepairBot renames the file to .cjs (and the package.json scripts that run
 * it) when the file has no ESM syntax of its own; otherwise the file mixes both, and only its author
 * can say which it is meant to be.
 */
const NOT_IN_ESM = /\b(require|module|exports|__dirname|__filename) is not defined in ES module scope/;
const FRAME = /(?:file:\/\/)?(\/[^\s():'"]+\.(?:js|jsx|ts|tsx)):(\d+)(?::(\d+))?/;
const PACKAGE_JSON = /'([^']+package\.json)' contains "type": "module"/;

/** `import x from`, `import {`, `import '…'`, `export …` at the start of a line: the file is written as ESM. */
export const ESM_SYNTAX =
  /^\s*(?:import\s*(?:[\w*{]|["'])|export\s+(?:default|const|let|var|function|class|async|\{|\*))/m;

export async function moduleFormat(ctx: Context): Promise<Diagnosis | null> {
  const index = ctx.lines.findIndex((l) => NOT_IN_ESM.test(l));
  if (index < 0) return esmAsCommonJs(ctx);
  const what = NOT_IN_ESM.exec(ctx.lines[index]!)![1]!;
  // The file: the stack frame under the message, else the `file:///…:line` Node prints above the source.
  let place: { file: string; line: number; column?: number } | undefined;
  const near = [
    ...ctx.lines.slice(index + 1, index + 8),
    ...ctx.lines.slice(Math.max(0, index - 6), index).reverse(),
  ];
  for (const line of near) {
    const m = FRAME.exec(line);
    const found = m ? ctx.paths.place(m[1]!, Number(m[2]), m[3] ? Number(m[3]) : undefined) : undefined;
    if (found && !found.file.startsWith('node_modules/') && !found.file.includes('/node_modules/')) {
      place = { file: found.file, line: found.line, ...(found.column ? { column: found.column } : {}) };
      break;
    }
  }
  if (!place) return null;
  const pkgLine = ctx.lines
    .slice(index, index + 4)
    .map((l) => PACKAGE_JSON.exec(l)?.[1])
    .find(Boolean);
  const manifest = (pkgLine && ctx.file(pkgLine)) ?? ctx.appPackageJson;
  const source = await ctx.readText(place.file, 4 * 1024 * 1024);
  const mixed = source !== null && ESM_SYNTAX.test(source);
  const cjs = place.file.replace(/\.js$/, '.cjs');
  const summary = `${place.file} is written as CommonJS (it uses ${what}), but ${manifest} says "type": "module", so Node runs it as an ES module.`;
  if (mixed || !place.file.endsWith('.js')) {
    return {
      code: 'MODULE_FORMAT_MISMATCH',
      summary,
      ...place,
      suggestion: mixed
        ? `${place.file} also uses import/export: write it all as an ES module (import instead of require, import.meta.dirname instead of __dirname).`
        : `Write ${place.file} as an ES module (import instead of require).`,
      subjects: [place.file, manifest],
    };
  }
  return {
    code: 'MODULE_FORMAT_MISMATCH',
    summary,
    ...place,
    suggestion: `Rename it to ${cjs} (and the scripts that run it), so Node runs it as CommonJS; or write it with import instead of require. ${REPAIR_HINT}`,
    subjects: [place.file, manifest],
    repair: 'USE_COMMONJS_EXTENSION',
  };
}

/**
 * The other way round: Node ran an ES module as CommonJS ("SyntaxError: Cannot use import statement
 * outside a module"), because its package.json says "type": "commonjs" (npm init writes it) or, on an
 * older Node, says nothing. Node prints the file and line above the source line. RepairBot renames
 * it to .mjs (and the package.json scripts that run it) when the file uses no CommonJS of its own.
 */
const IMPORT_OUTSIDE = /Cannot use import statement outside a module/;
/** require(), module.exports, exports.x =, __dirname: the file is written as CommonJS. */
export const CJS_SYNTAX = /\b(?:require\s*\(|module\.exports\b|exports\.\w+\s*=|__dirname\b|__filename\b)/;

async function esmAsCommonJs(ctx: Context): Promise<Diagnosis | null> {
  const index = ctx.lines.findIndex((l) => IMPORT_OUTSIDE.test(l));
  if (index < 0) return null;
  let place: { file: string; line: number } | undefined;
  // Node prints "<file>:<line>", the source line and a caret above the message.
  for (const line of ctx.lines.slice(Math.max(0, index - 6), index).reverse()) {
    const m = /^(\S+\.(?:js|jsx|ts|tsx)):(\d+)$/.exec(line.trim()) ?? FRAME.exec(line);
    const found = m ? ctx.paths.place(m[1]!, Number(m[2])) : undefined;
    if (found && !found.file.split('/').includes('node_modules')) {
      place = { file: found.file, line: found.line };
      break;
    }
  }
  if (!place) return null;
  const manifest = ctx.appPackageJson;
  const source = await ctx.readText(place.file, 4 * 1024 * 1024);
  if (source === null) return null;
  const type = await manifestType(ctx, manifest);
  const says = type === 'commonjs' ? 'says "type": "commonjs"' : 'sets no "type": "module"';
  const summary = `${place.file} is written as an ES module (it uses import), but ${manifest} ${says}, so Node runs it as CommonJS.`;
  const mjs = place.file.replace(/\.js$/, '.mjs');
  if (CJS_SYNTAX.test(source) || !place.file.endsWith('.js')) {
    return {
      code: 'MODULE_FORMAT_MISMATCH',
      summary,
      ...place,
      suggestion: `Write ${place.file} all as one kind of module (it also uses CommonJS), or rename it to .mjs.`,
      subjects: [place.file, manifest],
    };
  }
  return {
    code: 'MODULE_FORMAT_MISMATCH',
    summary,
    ...place,
    suggestion: `Rename it to ${mjs} (and the scripts that run it), so Node runs it as an ES module; the "type" field stays as it is, since it decides for every other .js file. ${REPAIR_HINT}`,
    subjects: [place.file, manifest],
    repair: 'USE_ESM_EXTENSION',
  };
}

async function manifestType(ctx: Context, manifest: string): Promise<unknown> {
  const text = await ctx.readText(manifest, 1024 * 1024);
  try {
    return text === null ? undefined : (JSON.parse(text) as { type?: unknown }).type;
  } catch {
    return undefined;
  }
}
