import fs from 'node:fs';
import path from 'node:path';
import type { Diagnosis } from '@forge/shared';
import { at, listText, REPAIR_HINT, type Context, type Place } from './context.ts';
import { isNodeBuiltin, packageNameOf } from '../package-name.ts';
import { matchIgnoringCase } from './resolve-case.ts';

/**
 * Imports that did not resolve, as each tool says it, and what they mean: a package the project
 * does not declare (or did not install), a local file whose name differs only by case, or a local
 * file that is not there.
 */

/** One import a tool could not resolve. */
export interface Unresolved {
  specifier: string;
  /** The file that imports it, when the tool says (a project file; never one in node_modules). */
  importer?: Place;
  /** Absolute folder a relative specifier is resolved from (the importer's, or the one the tool names). */
  baseDir?: string;
  /** The importer is a dependency's file: its own imports are not the project's to fix. */
  inDependency: boolean;
  /** Index of the line that said it. */
  index: number;
}

/** `"x"`, `'x'` or `` `x` `` — a quoted specifier. */
const Q = `["'\`]([^"'\`]{1,300})["'\`]`;
/** Rollup, Vite (Rollup or Rolldown): `[vite]: Rollup failed to resolve import "x" from "/abs/src/App.tsx".` */
const VITE_UNRESOLVED = new RegExp(`(?:Rollup|Rolldown) failed to resolve import ${Q} from ${Q}`);
/** Rolldown: `[UNRESOLVED_IMPORT] Could not resolve './x' in src/main.js`; Rollup: `Could not resolve "./x" from "src/main.js"`; esbuild: `✘ [ERROR] Could not resolve "x"`. */
const COULD_NOT_RESOLVE = new RegExp(
  `Could not resolve ${Q}(?: (?:in|from) ["'\`]?([^"'\`\\s]{1,500})["'\`]?)?`,
);
/** webpack, Next, Turbopack: `Module not found: Error: Can't resolve 'x' in '/abs/src'`. */
const CANT_RESOLVE = new RegExp(`Can't resolve ${Q}(?: in ${Q})?`);
/** Node ESM: `Cannot find package 'x' imported from /abs/a.mjs`, `Cannot find module '/abs/x' imported from /abs/a.mjs`. */
const NODE_ESM = new RegExp(`Cannot find (?:package|module) ${Q} imported from (\\S{1,500})`);
/** Node CJS: `Error: Cannot find module 'x'` with `Require stack:` and `- /abs/a.js` under it. */
const NODE_CJS = new RegExp(`^(?:\\S*Error(?: \\[\\w+\\])?: )?Cannot find module ${Q}\\s*$`);
/** tsc: `src/a.ts:1:26 - error TS2307: Cannot find module 'x' or its corresponding type declarations.` */
const TSC_2307 = new RegExp(`error TS2307: Cannot find module ${Q}`);

/** A file line as Next prints it above its error: `./app/page.tsx` (with or without :line:col). */
const FILE_LINE = /^\.{0,2}\/?[^\s:]+\.\w+(?::\d+:\d+)?$/;
/** Vite bundles its config to node_modules/.vite-temp/vite.config.js.timestamp-…mjs before loading it. */
const VITE_TEMP = /^(.*)\/node_modules\/\.vite-temp\/(.+?)\.timestamp-[\w-]+\.m?js$/;

function importerAt(ctx: Context, raw: string): { place?: Place; inDependency: boolean; dir?: string } {
  let name = raw.trim().replace(/^["'`]|["'`.,:]+$/g, '');
  if (name.startsWith('file://')) name = decodeURIComponent(name.slice('file://'.length));
  const temp = VITE_TEMP.exec(name);
  if (temp) name = `${temp[1]}/${temp[2]}`;
  const absolute = path.resolve(ctx.cwd, name);
  const file = ctx.file(absolute);
  const inDependency = /(^|\/)node_modules\//.test(file ?? name);
  return {
    ...(file && !inDependency ? { place: { file } } : {}),
    inDependency,
    ...(file ? { dir: path.dirname(absolute) } : {}),
  };
}

/** `file:line:col` of `file` on the line or the few under it (Rolldown's `╭─[ src/main.js:1:24 ]` box). */
function lineOf(ctx: Context, i: number, file: string): Place | undefined {
  const end = Math.min(ctx.lines.length, i + 4);
  for (let j = i; j < end; j += 1) {
    for (const m of ctx.lines[j]!.matchAll(/([^\s[\]()'"`]+\.\w+):(\d+):(\d+)/g)) {
      const place = ctx.paths.place(m[1]!, Number(m[2]), Number(m[3]));
      if (place?.file === file) return place;
    }
  }
  return undefined;
}

/** The first project file of a CJS "Require stack:" under line i. */
function requireStack(ctx: Context, i: number): string | undefined {
  const end = Math.min(ctx.lines.length, i + 8);
  for (let j = i + 1; j < end; j += 1) {
    const m = /^\s*- (\/\S+)$/.exec(ctx.lines[j]!);
    if (m) return m[1];
  }
  return undefined;
}

/** More unresolved imports than this are not read (each is placed and looked up on disk). */
const MAX_UNRESOLVED = 50;

/** Every unresolved import the output reports, in order, each once (at most MAX_UNRESOLVED). */
export function findUnresolved(ctx: Context): Unresolved[] {
  const found: Unresolved[] = [];
  const seen = new Set<string>();
  ctx.lines.forEach((line, index) => {
    if (found.length >= MAX_UNRESOLVED || !/resolve|Cannot find|TS2307/.test(line)) return;
    let specifier: string | undefined;
    let importerText: string | undefined;
    let dirText: string | undefined;
    let m: RegExpExecArray | null;
    if ((m = VITE_UNRESOLVED.exec(line))) [specifier, importerText] = [m[1], m[2]];
    else if ((m = COULD_NOT_RESOLVE.exec(line))) [specifier, importerText] = [m[1], m[2]];
    else if ((m = CANT_RESOLVE.exec(line))) [specifier, dirText] = [m[1], m[2]];
    else if ((m = NODE_ESM.exec(line))) [specifier, importerText] = [m[1], m[2]];
    else if ((m = NODE_CJS.exec(line.trim()))) [specifier, importerText] = [m[1], requireStack(ctx, index)];
    else if ((m = TSC_2307.exec(line))) specifier = m[1];
    if (!specifier || isNodeBuiltin(specifier)) return;

    const importer = importerText ? importerAt(ctx, importerText) : undefined;
    let place = importer?.place;
    let baseDir = importer?.dir ?? (dirText ? path.resolve(ctx.cwd, dirText) : undefined);
    // The place of the import statement: on the line, under it, or the file line above it.
    const location = ctx.locate(index, specifier);
    if (location && (!place || place.file === location.file)) {
      place = location;
      baseDir ??= path.dirname(ctx.abs(location.file));
    }
    if (place && place.line === undefined) place = lineOf(ctx, index, place.file) ?? place;
    if (!place && index > 0 && FILE_LINE.test(ctx.lines[index - 1]!.trim())) {
      const file = ctx.file(ctx.lines[index - 1]!.trim().replace(/:\d+:\d+$/, ''));
      if (file) {
        place = { file };
        baseDir ??= path.dirname(ctx.abs(file));
      }
    }
    const key = `${specifier}\0${place?.file ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({
      specifier,
      ...(place ? { importer: place } : {}),
      ...(baseDir ? { baseDir } : {}),
      inDependency: importer?.inDependency ?? false,
      index,
    });
  });
  return found;
}

const isRelative = (specifier: string) => /^\.\.?(\/|$)/.test(specifier);

/** MISSING_PACKAGE for the bare imports among `found` whose package is not installed, or null. */
export async function missingPackages(ctx: Context, found: readonly Unresolved[]): Promise<Diagnosis | null> {
  const byName = new Map<string, Unresolved>();
  const own = await ctx.ownNames();
  for (const u of found) {
    const name = packageNameOf(u.specifier);
    // The project importing itself by name (its exports) is no package to add.
    if (!name || byName.has(name) || own.has(name)) continue;
    // Installed yet unresolved (a subpath it does not export, types it does not ship): not missing.
    if (ctx.installed(name, u.baseDir ?? ctx.cwd)) continue;
    byName.set(name, u);
  }
  if (byName.size === 0) return null;
  return packagesDiagnosis(ctx, [...byName.keys()], byName.values().next().value!.importer);
}

/**
 * A diagnosis for packages that are needed and not installed: added by RepairBot when package.json
 * does not declare them; reinstalled by the user when it does (then the install went wrong).
 */
export async function packagesDiagnosis(
  ctx: Context,
  names: readonly string[],
  importer: Place | undefined,
  usedBy?: string,
): Promise<Diagnosis> {
  const undeclared: string[] = [];
  for (const name of names) if (!(await ctx.declared(name))) undeclared.push(name);
  const quoted = (list: readonly string[]) => listText(list.map((n) => `"${n}"`));
  const where = usedBy ?? (importer ? `imported by ${importer.file}` : 'imported by the project');
  if (undeclared.length > 0) {
    const verb = undeclared.length === 1 ? 'is' : 'are';
    return {
      code: 'MISSING_PACKAGE',
      summary: `${quoted(undeclared)} ${verb} ${where} but not declared in ${ctx.appPackageJson}.`,
      ...at(importer),
      suggestion: `Add ${quoted(undeclared)} to the dependencies in ${ctx.appPackageJson} and build again. ${REPAIR_HINT}`,
      subjects: undeclared,
      repair: 'ADD_MISSING_PACKAGES',
    };
  }
  const verb = names.length === 1 ? 'is' : 'are';
  return {
    code: 'MISSING_PACKAGE',
    summary: `${quoted(names)} ${verb} declared in package.json but not installed (${where}).`,
    ...at(importer),
    suggestion:
      'Install the dependencies again (rebuild without the cache); if it stays missing, check the install output for a failed or skipped package and that the name in package.json is the one imported.',
    subjects: [...names],
  };
}

/** IMPORT_CASE_MISMATCH or MISSING_FILE for the first relative import of the project that failed, or null. */
export function missingFile(ctx: Context, found: readonly Unresolved[]): Diagnosis | null {
  for (const u of found) {
    if (u.inDependency) continue;
    let specifier = u.specifier;
    // Node reports a relative import resolved (`Cannot find module '/abs/src/lib'`), or the script
    // it was told to run (`node dist/server.js` when the build did not write it).
    if (path.isAbsolute(specifier) && !u.baseDir) {
      const rel = ctx.rel(specifier);
      if (!rel || rel.startsWith('node_modules/')) continue;
      return {
        code: 'MISSING_FILE',
        summary: `${rel} does not exist, and the ${ctx.input.step ?? 'build'} command loads it.`,
        suggestion: `Check that the file is in the upload, or that an earlier step (the build) writes it; then point the command at the file that exists.`,
        subjects: [rel],
      };
    }
    let importer = u.importer;
    if (path.isAbsolute(specifier) && u.baseDir) {
      if (!ctx.rel(specifier)) continue;
      const rel = path.relative(u.baseDir, specifier).split(path.sep).join('/');
      specifier = rel.startsWith('.') ? rel : `./${rel}`;
      // Node printed the import resolved: find it as written in the importer, with its line.
      if (importer) importer = writtenImport(ctx, importer, specifier) ?? importer;
    }
    if (!isRelative(specifier)) continue;
    // Without the importer's folder there is nothing to look in: the import is all there is to say.
    const match =
      u.baseDir && ctx.rel(u.baseDir)
        ? matchIgnoringCase(u.baseDir, specifier, ctx.projectDir)
        : ({ kind: 'none', candidates: [] } as const);
    if (match.kind === 'exists') continue;
    const by = importer ? `${importer.file} imports` : 'The project imports';
    if (match.kind === 'case') {
      const actual = ctx.rel(match.file) ?? match.file;
      return {
        code: 'IMPORT_CASE_MISMATCH',
        summary: `${by} "${specifier}", but the file is ${actual}: the letter case differs.`,
        ...at(importer),
        suggestion: `Write the import as "${match.corrected}" (file names are case-sensitive on Linux, unlike on macOS and Windows). ${REPAIR_HINT}`,
        subjects: [specifier, match.corrected],
        repair: 'FIX_IMPORT_CASE',
      };
    }
    const target = (u.baseDir && ctx.rel(path.resolve(u.baseDir, specifier))) || specifier;
    const several = match.candidates.length > 1;
    return {
      code: 'MISSING_FILE',
      summary: `${by} "${specifier}", which does not exist${several ? ' (several files match it ignoring case)' : ''}.`,
      ...at(importer),
      suggestion: several
        ? `Rename the files so only one matches, or write the import with the exact case of the one meant: ${match.candidates.map((f) => ctx.rel(f) ?? f).join(', ')}.`
        : `Create ${target} (with its extension, e.g. .js or .ts), add it to the upload if it was left out, or correct the path in ${importer?.file ?? 'the import'}.`,
      subjects: [specifier],
    };
  }
  return null;
}

/**
 * The importer with the line of `specifier` as written in it (a quoted literal), when the tool only
 * printed the import resolved to an absolute path; null when it cannot be found.
 */
function writtenImport(ctx: Context, importer: Place, specifier: string): Place | null {
  let text: string;
  try {
    const file = path.join(ctx.projectDir, importer.file);
    if (fs.statSync(file).size > 1_000_000) return null;
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    for (const quote of ["'", '"', '`']) {
      const col = line.indexOf(`${quote}${specifier}${quote}`);
      if (col >= 0) return { ...importer, line: i + 1, column: col + 2 };
    }
  }
  return null;
}

/** Bins of common tools → the package that provides them (when it is not the bin's own name). */
const BIN_PACKAGES: Record<string, string> = {
  tsc: 'typescript',
  'vue-cli-service': '@vue/cli-service',
  ng: '@angular/cli',
  'svelte-kit': '@sveltejs/kit',
  'react-scripts': 'react-scripts',
  'webpack-cli': 'webpack-cli',
  webpack: 'webpack-cli',
  eleventy: '@11ty/eleventy',
  docusaurus: '@docusaurus/core',
  gatsby: 'gatsby',
  nuxt: 'nuxt',
  nuxi: 'nuxi',
  remix: '@remix-run/dev',
  babel: '@babel/cli',
  postcss: 'postcss-cli',
  'run-s': 'npm-run-all',
  'run-p': 'npm-run-all',
  'npm-run-all': 'npm-run-all',
  tailwindcss: 'tailwindcss',
  'ts-node': 'ts-node',
  jest: 'jest',
};
/** Bins that are a package of the same name. */
const SAME_NAME_BINS = new Set([
  'vite',
  'next',
  'astro',
  'rollup',
  'esbuild',
  'parcel',
  'tsup',
  'tsx',
  'vitest',
  'eslint',
  'prettier',
  'sass',
  'rimraf',
  'cross-env',
  'concurrently',
  'nodemon',
  'serve',
  'turbo',
  'nx',
  'lerna',
  'prisma',
  'svelte-check',
  'vue-tsc',
  'tsc-alias',
  'copyfiles',
  'shx',
]);

/** The package that provides `bin`, when Forge can tell (a known tool, or a declared package of that name). */
export async function packageOfBin(ctx: Context, bin: string): Promise<string | null> {
  // The project's own bin is not a package it lacks.
  if ((await ctx.ownNames()).has(bin)) return null;
  if (BIN_PACKAGES[bin]) return BIN_PACKAGES[bin];
  if (SAME_NAME_BINS.has(bin)) return bin;
  return packageNameOf(bin) === bin && (await ctx.declared(bin)) ? bin : null;
}
