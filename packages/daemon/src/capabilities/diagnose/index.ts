import type { DiagnosedError, Diagnosis, ToolError } from '@forge/shared';
import { syntaxError, typeError, unknown } from './code-rules.ts';
import { Context, type DiagnoseInput } from './context.ts';
import { missingEnv } from './env-rules.ts';
import { installScriptSkipped } from './install-script-rules.ts';
import { moduleFormat } from './module-format-rules.ts';
import { esmImport } from './esm-rules.ts';
import { missingExport } from './export-rules.ts';
import { missingTypes } from './types-rules.ts';
import { invalidManifest } from './manifest-rules.ts';
import { findUnresolved, missingFile, missingPackages } from './imports.ts';
import {
  commandMissing,
  engineRefused,
  engineWarning,
  lockfileOutOfSync,
  missingScript,
  nodeUnavailable,
  peerConflict,
} from './package-manager-rules.ts';
import { packageNotOnRegistry } from './registry-rules.ts';
import { pipResolution, pythonLockConflict } from './python-rules.ts';
import { bundlerResolution, installToolMissing, stackCodeError } from './stack-rules.ts';
import {
  foreignNodeModules,
  networkAtBuild,
  outOfMemory,
  outputMissing,
  portInUse,
  timedOut,
} from './runtime-rules.ts';
import { mismatchedVersions } from './version-rules.ts';

/**
 * ScanBot's diagnosis of a failed build: what is wrong, where, and what to do — read from what the
 * tools printed (Vite/Rollup/Rolldown, esbuild, tsc, webpack, Next, Node, npm/pnpm/yarn/bun codes)
 * and confirmed against the project on disk (package.json, node_modules, the file an import meant).
 * Never guessed from an exit code. No network, no model: a pure reading of the output and the files.
 *
 * A failure prints several errors, and the generic ones ("Build failed", "exited with code 1") come
 * with every specific one. The first rule below that matches decides, so a cause wins over what it
 * causes:
 *
 *  1. TIMEOUT — the step was stopped at its limit: what it printed is cut short.
 *  2. OUTPUT_MISSING — the build command itself succeeded; only its output folder is wrong.
 *  3. FOREIGN_NODE_MODULES — native code for another platform also looks like a missing module or a
 *     syntax error; it explains both.
 *  4. OUT_OF_MEMORY — a killed process leaves half-printed errors behind.
 *  5. NODE_VERSION_MISMATCH when the Node the project asks for could not be provided; then
 *     PACKAGE_MANAGER_MISSING — the toolchain could not be provided, or a command is not on PATH
 *     (MISSING_PACKAGE instead when it is the bin of a known package the project lacks: `vite`).
 *  6. The package manager's refusals, in its own words: LOCKFILE_OUT_OF_SYNC (for Python, pip held to a
 *     lock's pins that pyproject.toml has outgrown), PEER_DEPENDENCY_CONFLICT,
 *     PACKAGE_NOT_ON_REGISTRY (the registry answered 404 or "no matching version": never a host that
 *     could not be reached, which is NETWORK_AT_BUILD), NODE_VERSION_MISMATCH (EBADENGINE, a tool's
 *     own Node check), MISSING_SCRIPT (a plan that found nothing to build is MISSING_SCRIPT only when
 *     the app's package.json has no "build"; else UNKNOWN with the plan's reason and what the forge
 *     config can set).
 *  7. What the app refused to run with: MISMATCHED_PACKAGE_VERSIONS (react and react-dom apart), then
 *     INSTALL_SCRIPT_SKIPPED (npm skipped a dependency's install script, not approved in allowScripts,
 *     and the failure is in that package or in what its script writes: Prisma's client), then
 *     MISSING_ENV (an environment variable the output names; the files confirm a plain sentence).
 *     Both before imports and network: a server that stops for its secret may print a failed
 *     connection after it, and the variable is the cause.
 *  8. Imports that did not resolve: MISSING_PACKAGE (every bare import whose package is not installed,
 *     builtins never), then IMPORT_CASE_MISMATCH / MISSING_FILE for the first relative one. A missing
 *     package comes first: tools stop at it, and type errors or syntax errors after it are its echoes.
 *  9. NETWORK_AT_BUILD — a host the build needed (fonts, schemas) could not be reached.
 * 10. PORT_IN_USE — the server app could not listen.
 * 11. SYNTAX_ERROR (NODE_VERSION_MISMATCH when Node cannot parse a dependency and the project asks
 *     for another Node), then TYPE_ERROR: a file that does not parse cannot be type-checked.
 * 12. NODE_VERSION_MISMATCH when the plan already said this Node is not the one asked for
 *     (error.probableCause), or the package manager warned of an engine (EBADENGINE as a warning),
 *     and nothing more specific was found.
 * 13. UNKNOWN — the first error line and its place, and where to read the whole log.
 *
 * Work is bounded: the last 5,000 lines, each cut to 2,000 characters, are read; files are read only
 * to confirm (package.json, a node_modules entry, the folder of an import).
 */
export async function diagnose(input: DiagnoseInput): Promise<Diagnosis> {
  const ctx = new Context(input);
  const rules: ((ctx: Context) => Diagnosis | null | Promise<Diagnosis | null>)[] = [
    installToolMissing,
    stackToolMissing,
    invalidManifest,
    timedOut,
    outputMissing,
    foreignNodeModules,
    outOfMemory,
    nodeUnavailable,
    commandMissing,
    pythonLockConflict,
    pipResolution,
    bundlerResolution,
    lockfileOutOfSync,
    peerConflict,
    packageNotOnRegistry,
    engineRefused,
    missingScript,
    notPlanned,
    mismatchedVersions,
    installScriptSkipped,
    missingEnv,
    moduleFormat,
    esmImport,
    imports,
    missingExport,
    missingTypes,
    networkAtBuild,
    portInUse,
    stackCodeError,
    syntaxError,
    typeError,
    probableCause,
    engineWarning,
  ];
  for (const rule of rules) {
    const found = await rule(ctx);
    if (found && (await trueOfTheFiles(ctx, found))) return withOthers(ctx, found);
  }
  return withOthers(ctx, unknown(ctx));
}

/** Other errors listed beside the first one stop here (the build record lists 50 at most too). */
const MAX_OTHERS = 50;

/**
 * The first diagnosis with every other distinct error of the same failure, each read on its own:
 * every unresolved import (a missing package, an import whose case differs, a missing file) and
 * every other error a tool printed (the build record's error list), so one pass can repair all that
 * is repairable and say what remains. A tool error that an import diagnosis already explains (same
 * place, or its message names the import) is not listed twice.
 */
async function withOthers(ctx: Context, primary: Diagnosis): Promise<Diagnosis> {
  const others: DiagnosedError[] = [];
  const same = (a: DiagnosedError, b: DiagnosedError): boolean =>
    a.code === b.code &&
    a.file === b.file &&
    a.line === b.line &&
    (a.subjects?.[0] ?? '') === (b.subjects?.[0] ?? '');
  const add = (d: DiagnosedError): void => {
    const { others: _nested, ...item } = d as Diagnosis;
    if (others.length < MAX_OTHERS && !same(item, primary) && !others.some((o) => same(o, item))) {
      others.push(item);
    }
  };
  const found = findUnresolved(ctx);
  const packages = await missingPackages(ctx, found);
  // The first diagnosis may already name every missing package: then they are not listed again.
  if (packages && !(primary.code === 'MISSING_PACKAGE' && sameNames(primary, packages))) {
    if (await trueOfTheFiles(ctx, packages)) add(packages);
  }
  const imports: DiagnosedError[] = [];
  for (const u of found) {
    const d = missingFile(ctx, [u]);
    if (d && (await trueOfTheFiles(ctx, d))) imports.push(d);
  }
  imports.forEach(add);
  const explained = [primary, ...(packages ? [packages] : []), ...imports];
  for (const e of ctx.input.error.errors ?? []) {
    if (e.primary || explained.some((d) => explains(d, e))) continue;
    add(fromToolError(e));
  }
  return others.length > 0 ? { ...primary, others } : primary;
}

const sameNames = (a: Diagnosis, b: Diagnosis): boolean =>
  (b.subjects ?? []).every((name) => a.subjects?.includes(name));

/** Whether a diagnosis is about the error a tool printed: the same place, or an import it names. */
function explains(d: DiagnosedError, e: ToolError): boolean {
  if (d.file && e.file === d.file && d.line !== undefined && e.line === d.line) return true;
  return (d.subjects ?? []).some(
    (s) => s.length > 1 && new RegExp(`["'\`]${escapeRegExp(s)}["'\`]`).test(e.message),
  );
}

/** A tool's error that no rule reads more closely: a type error (tsc's TS codes) or, else, as printed. */
function fromToolError(e: ToolError): DiagnosedError {
  const place = {
    ...(e.file ? { file: e.file } : {}),
    ...(e.file && e.line ? { line: e.line } : {}),
    ...(e.file && e.line && e.column ? { column: e.column } : {}),
  };
  const typeError = /^TS\d+$/.test(e.code ?? '') && e.code !== 'TS1005';
  return {
    code: typeError ? 'TYPE_ERROR' : 'UNKNOWN',
    summary: `${e.tool}: ${e.message}${e.code ? ` (${e.code})` : ''}`,
    ...place,
    suggestion: 'RepairBot has no safe repair for it: correct the code at this place.',
  };
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A rule's claim checked against the project before it is stated, whatever the rule: a package.json
 * said to lack a script has none; a package said to be undeclared is not declared; and advice about a
 * package (use another version of it, add it, install it) is never about the uploaded project itself,
 * which a tool names like any package ("my-app@1.0.0: The engine "node" is incompatible"). A claim the
 * files contradict is dropped, and the next rule reads the failure.
 */
async function trueOfTheFiles(ctx: Context, d: Diagnosis): Promise<boolean> {
  if (d.code === 'MISSING_SCRIPT' && d.file) {
    const script = d.subjects?.[0];
    const scripts = await ctx.scriptsOf(d.file);
    if (script && scripts?.[script] !== undefined) return false;
  }
  if (d.code === 'MISSING_PACKAGE' && d.repair === 'ADD_MISSING_PACKAGES') {
    for (const name of d.subjects ?? []) if (await ctx.declared(name)) return false;
  }
  const own = await ctx.ownNames();
  const advice = `${d.summary} ${d.suggestion ?? ''}`;
  for (const name of own) {
    if ((d.code === 'MISSING_PACKAGE' || d.code === 'NODE_VERSION_MISMATCH') && d.subjects?.includes(name)) {
      return false;
    }
    const pattern = new RegExp(
      `(?:version of|[Aa]dd|[Ii]nstall|[Uu]pgrade|[Dd]owngrade|[Rr]emove) "?${escapeRegExp(name)}"?(?![\\w@/.-])`,
    );
    if (pattern.test(advice)) return false;
  }
  return true;
}

/**
 * Another stack's tool is missing or too old (DependencyBot said which, and how to install it): the
 * diagnosis names the same tool, version and command, so the message, the diagnosis and the hint agree.
 */
function stackToolMissing(ctx: Context): Diagnosis | null {
  const { error, blueprint } = ctx.input;
  const runtime = blueprint?.runtime;
  if (error.code !== 'TOOLCHAIN_UNAVAILABLE' || !runtime) return null;
  const file = runtime.versionFile ?? blueprint.decisions.find((d) => d.field === 'stack')?.file ?? undefined;
  return {
    code: 'TOOLCHAIN_MISSING',
    summary: error.message,
    ...(file ? { file } : {}),
    // DependencyBot's hint is the precise one (it knows what this OS's archive carries).
    suggestion:
      error.hint ??
      (runtime.tool === 'deno'
        ? `Let the daemon reach the npm registry, where Forge fetches Deno (the deno package), or install deno on the machine that runs Forge (\`${runtime.installCommand}\`), then build again.`
        : `Install ${runtime.minimum ? `${runtime.tool} ${runtime.minimum} or newer` : runtime.tool} on the machine that runs Forge (\`${runtime.installCommand}\`), then build again; Forge uses the machine's ${runtime.tool} and never installs system packages itself.`),
    subjects: [runtime.tool, ...(runtime.minimum ? [runtime.minimum] : [])],
  };
}

async function imports(ctx: Context): Promise<Diagnosis | null> {
  const found = findUnresolved(ctx);
  if (found.length === 0) return null;
  return (await missingPackages(ctx, found)) ?? missingFile(ctx, found);
}

/**
 * Forge found no way to build or serve the project (and no script is missing): say the plan's reason,
 * its evidence, and what the forge config can set, rather than "read the log" of a build that never ran.
 */
async function notPlanned(ctx: Context): Promise<Diagnosis | null> {
  const { error, blueprint } = ctx.input;
  if (error.code !== 'PROJECT_NOT_BUILDABLE') return null;
  const file = blueprint?.decisions.findLast((d) => d.field === 'kind')?.file ?? undefined;
  const others = blueprint?.apps.filter((a) => a.dir !== blueprint.appDir).map((a) => a.dir) ?? [];
  // A build script that is there is said to be there: the plan, not the project, lacks something.
  const build = await ctx.script('build');
  return {
    code: 'UNKNOWN',
    summary:
      build === undefined
        ? error.message
        : `${ctx.appPackageJson} has a "build" script (${build}), but Forge could not tell what it builds or how to serve it: ${error.message}`,
    ...(file ? { file } : {}),
    suggestion:
      'Set "build" and "outputDir" (or "start" for a server) in the forge config (forge.config.json)' +
      (others.length > 0 ? `, or build another app with --app ${others[0]}` : '') +
      '; forge plan shows what Forge read.',
  };
}

/** The plan said this Node is not the one the project asks for, and nothing more specific was found. */
function probableCause(ctx: Context): Diagnosis | null {
  const { error, blueprint } = ctx.input;
  if (!error.probableCause) return null;
  const found = ctx.first();
  const node = blueprint?.node;
  return {
    code: 'NODE_VERSION_MISMATCH',
    summary: error.probableCause,
    ...(node ? { file: node.file } : {}),
    suggestion: `Run Forge with a Node that satisfies ${node?.wanted ?? "the project's engines"}, or lower the requirement if the project works on Node ${node?.current ?? process.versions.node}.${found ? ` The first error was: ${found.firstLine}` : ''}`,
  };
}

export type { DiagnoseInput } from './context.ts';
export { packageNameOf, isNodeBuiltin } from '../package-name.ts';
