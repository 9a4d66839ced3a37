import fs from 'node:fs';
import path from 'node:path';
import { formatCommand, nodeEvidence, type Diagnosis } from '@forge/shared';
import { listText, REPAIR_HINT, type Context } from './context.ts';
import { packageOfBin, packagesDiagnosis } from './imports.ts';
import { isNodeUnavailable } from '../toolchains/node.ts';
import { stripVersion } from '../package-name.ts';
import { constraintRange } from '../detect/node-range.ts';

/**
 * What the package managers refuse, by their own codes and sentences (npm 11, pnpm 10, Yarn 1 and 2+,
 * Bun 1): a lockfile that drifted from package.json, peer dependencies that conflict, a script that
 * is not there, an engine the package does not accept, a package manager or tool that is not there.
 */

/** npm's line prefix ("npm error ", "npm ERR! "), removed to read what follows. */
const NPM_PREFIX = /^npm (?:error|ERR!)\s?/;
const body = (line: string) => line.replace(NPM_PREFIX, '').trim();

const LOCKFILES: Record<string, string[]> = {
  npm: ['package-lock.json', 'npm-shrinkwrap.json'],
  pnpm: ['pnpm-lock.yaml'],
  yarn: ['yarn.lock'],
  bun: ['bun.lock', 'bun.lockb'],
};

const LOCKFILE_DRIFT: { pm: string; pattern: RegExp }[] = [
  { pm: 'npm', pattern: /`npm ci` can only install packages when your package\.json and package-lock\.json/ },
  { pm: 'npm', pattern: /The `npm ci` command can only install with an existing package-lock\.json/ },
  {
    pm: 'pnpm',
    pattern:
      /ERR_PNPM_OUTDATED_LOCKFILE|ERR_PNPM_LOCKFILE_CONFIG_MISMATCH|ERR_PNPM_FROZEN_LOCKFILE_WITH_OUTDATED_LOCKFILE/,
  },
  { pm: 'yarn', pattern: /Your lockfile needs to be updated, but yarn was run with `--frozen-lockfile`/ },
  {
    pm: 'yarn',
    pattern: /The lockfile would have been modified by this install, which is explicitly forbidden/,
  },
  { pm: 'bun', pattern: /lockfile had changes, but lockfile is frozen/ },
];

/** LOCKFILE_OUT_OF_SYNC: the frozen install refused a lockfile that no longer matches package.json. */
export function lockfileOutOfSync(ctx: Context): Diagnosis | null {
  let hit: { pm: string; index: number } | null = null;
  for (const { pm, pattern } of LOCKFILE_DRIFT) {
    const index = ctx.find(pattern);
    if (index !== -1 && (!hit || index < hit.index)) hit = { pm, index };
  }
  if (!hit) return null;
  const changed: string[] = [];
  for (const line of ctx.lines) {
    // npm: "Missing: is-odd@3.0.1 from lock file", "Invalid: lock file's x@1.0.0 does not satisfy x@^2.0.0".
    const npm = /^(?:Missing: (\S+) from lock file|Invalid: lock file's (\S+) does not satisfy)/.exec(
      body(line),
    );
    if (npm) changed.push(stripVersion(npm[1] ?? npm[2]!));
    // pnpm: "* 1 dependencies were added: is-odd@^3.0.1"; bun: "…since bun.lock was saved: is-odd was added".
    const pnpm = /^\* \d+ dependenc(?:y was|ies were) (?:added|removed|mismatched): (.+)$/.exec(line.trim());
    if (pnpm) changed.push(...pnpm[1]!.split(/,\s*/).map((s) => stripVersion(s.trim())));
    const bun = /since bun\.lockb? was saved: (.+)$/.exec(line);
    if (bun) changed.push(...bun[1]!.split(/,\s*/).map((s) => s.replace(/ was \w+$/, '').trim()));
  }
  const names = [...new Set(changed.filter(Boolean))];
  const candidates = (LOCKFILES[hit.pm] ?? []).map((name) => path.posix.join(ctx.installDir, name));
  const lockfile = candidates.find((rel) => fs.existsSync(ctx.abs(rel)));
  const lock = lockfile ?? candidates[0] ?? 'The lockfile';
  return {
    code: 'LOCKFILE_OUT_OF_SYNC',
    summary: `${lock} does not match package.json${names.length ? ` (${listText(names)} changed)` : ''}, so the frozen ${hit.pm} install refused to run.`,
    ...(lockfile ? { file: lockfile } : {}),
    suggestion: `Run ${hit.pm} install locally and upload the updated ${lock}, or install without the frozen lockfile (the lockfile is then rewritten). ${REPAIR_HINT}`,
    ...(names.length ? { subjects: names } : {}),
    repair: 'REINSTALL_UNFROZEN',
  };
}

/** PEER_DEPENDENCY_CONFLICT: npm's ERESOLVE, pnpm's strict peer dependencies. */
export function peerConflict(ctx: Context): Diagnosis | null {
  const npm = ctx.find(/ERESOLVE (?:unable to resolve dependency tree|could not resolve)/);
  if (npm !== -1) {
    let found: string | undefined;
    let wanted: { name: string; range: string; by: string } | undefined;
    let conflicting: string | undefined;
    for (let i = npm; i < Math.min(ctx.lines.length, npm + 80); i += 1) {
      const text = body(ctx.lines[i]!);
      const f = /^Found: (\S+)$/.exec(text);
      if (f && !found) found = f[1];
      const c = /^Conflicting peer dependency: (\S+)$/.exec(text);
      if (c && !conflicting) conflicting = c[1];
      if (text === 'Could not resolve dependency:' && !wanted) {
        const next = body(ctx.lines[i + 1] ?? '');
        const p = /^(?:peer |dev |optional |peerOptional )?(\S+?)@"([^"]+)" from (\S+)$/.exec(next);
        if (p) wanted = { name: p[1]!, range: p[2]!, by: p[3]! };
      }
    }
    const subjects = [
      ...new Set(
        [found, wanted?.name, wanted ? stripVersion(wanted.by) : undefined].filter(Boolean) as string[],
      ),
    ].map(stripVersion);
    const summary =
      wanted && found
        ? `npm cannot install ${wanted.by}: it needs ${wanted.name}@"${wanted.range}" as a peer, but the project has ${found}.`
        : `npm refused conflicting peer dependencies (ERESOLVE)${found ? `: the project has ${found}` : ''}.`;
    return {
      code: 'PEER_DEPENDENCY_CONFLICT',
      summary,
      file: ctx.appPackageJson,
      suggestion: `Align the versions in package.json (e.g. a ${wanted?.by ? stripVersion(wanted.by) : 'package'} version that accepts ${found ?? 'the installed one'}${conflicting ? `, or ${conflicting}` : ''}), or install with --legacy-peer-deps. ${REPAIR_HINT}`,
      subjects: [...new Set(subjects)],
      repair: 'LEGACY_PEER_DEPS',
    };
  }
  const pnpm = ctx.find(/ERR_PNPM_PEER_DEP_ISSUES/);
  if (pnpm === -1) return null;
  const issues: string[] = [];
  const subjects: string[] = [];
  let by: string | undefined;
  for (let i = pnpm; i < Math.min(ctx.lines.length, pnpm + 60); i += 1) {
    const line = ctx.lines[i]!;
    const parent = /[└├]─┬ (\S+) (\S+)\s*$/.exec(line);
    if (parent) by = `${parent[1]}@${parent[2]}`;
    const unmet = /✕ (?:unmet|missing) peer (\S+?)@"?([^":]+?)"?(?:: found (\S+))?\s*$/.exec(line);
    if (unmet) {
      issues.push(
        `${by ?? 'a package'} needs ${unmet[1]}@"${unmet[2]}"${unmet[3] ? ` (found ${unmet[3]})` : ''}`,
      );
      subjects.push(unmet[1]!);
      if (by) subjects.push(stripVersion(by));
    }
  }
  return {
    code: 'PEER_DEPENDENCY_CONFLICT',
    summary: `pnpm refused unmet peer dependencies${issues.length ? `: ${issues.slice(0, 3).join('; ')}` : ''}.`,
    file: ctx.appPackageJson,
    suggestion: `Align the versions in package.json, or install with strict peer dependencies off. ${REPAIR_HINT}`,
    ...(subjects.length ? { subjects: [...new Set(subjects)] } : {}),
    repair: 'LEGACY_PEER_DEPS',
  };
}

/** The build command of each framework Forge detects (capabilities/detect: the fallback of each rule). */
export const FRAMEWORK_BUILDS: Record<string, string> = {
  vite: 'vite build',
  'vue-cli': 'vue-cli-service build',
  eleventy: 'eleventy',
  gatsby: 'gatsby build',
  docusaurus: 'docusaurus build',
  cra: 'react-scripts build',
  next: 'next build',
  'next-export': 'next build',
  astro: 'astro build',
  sveltekit: 'vite build',
  'sveltekit-static': 'vite build',
  angular: 'ng build',
};

const MISSING_SCRIPT = [
  /^npm (?:error|ERR!) Missing script: "([^"]+)"/,
  /ERR_PNPM_NO_SCRIPT\s+Missing script: (\S+)/,
  /^error Command "([^"]+)" not found\.?$/,
  /Couldn't find a script named "([^"]+)"/,
  /error: Script not found "([^"]+)"/,
];

/**
 * MISSING_SCRIPT: the package manager was asked to run a script package.json does not have. A project
 * Forge could not plan is only said to lack a "build" script when the app's package.json is there and
 * has none: an Nx app's build lives in project.json, and a script that exists is never denied.
 */
export async function missingScript(ctx: Context): Promise<Diagnosis | null> {
  let script: string | undefined;
  for (const line of ctx.lines) {
    for (const pattern of MISSING_SCRIPT) {
      const m = pattern.exec(line.trim());
      if (m) script = m[1];
    }
    if (script) break;
  }
  const { error, blueprint } = ctx.input;
  if (!script && error.code === 'PROJECT_NOT_BUILDABLE' && blueprint?.hasPackageJson) {
    const app = (await ctx.packages()).find((pkg) => pkg.file === ctx.appPackageJson);
    if (app && app.scripts.build === undefined) script = 'build';
  }
  if (!script) return null;
  // The package.json of the folder the failed command ran in: the install's for the install step.
  const file =
    ctx.input.step === 'install' ? path.posix.join(ctx.installDir, 'package.json') : ctx.appPackageJson;
  const framework = blueprint?.framework;
  const command = script === 'build' && framework ? FRAMEWORK_BUILDS[framework] : undefined;
  if (command) {
    return {
      code: 'MISSING_SCRIPT',
      summary: `${file} has no "${script}" script.`,
      file,
      suggestion: `Add "${script}": "${command}" to the scripts in ${file}, or let Forge run ${framework}'s own build command (${command}). ${REPAIR_HINT}`,
      subjects: [script],
      repair: 'USE_FRAMEWORK_BUILD',
    };
  }
  const how = blueprint?.build ? ` (Forge ran ${formatCommand(blueprint.build)})` : '';
  return {
    code: 'MISSING_SCRIPT',
    summary: `${file} has no "${script}" script${how}.`,
    file,
    suggestion: `Add a "${script}" script to ${file} that builds the project, or set the build command in the forge config (forge.config.json: "build").`,
    subjects: [script],
  };
}

/** NODE_VERSION_MISMATCH as the package manager or the tool states it (not guessed from a crash). */
export async function engineRefused(ctx: Context): Promise<Diagnosis | null> {
  const current = ranOn(ctx);
  // npm: "npm error code EBADENGINE" … "notsup Not compatible with your version of node/npm: x@1" / "notsup Required: {"node":">=22"}".
  if (ctx.find(/^npm (?:error|ERR!) code EBADENGINE/) !== -1) {
    const pkg = ctx.lines
      .map((l) => /Not compatible with your version of node\/npm: (\S+)/.exec(l)?.[1])
      .find(Boolean);
    const required = ctx.lines.map((l) => /notsup Required: \{"node":"([^"]+)"/.exec(l)?.[1]).find(Boolean);
    const actual = ctx.lines.map((l) => /notsup Actual: +\{"node":"v?([^"]+)"/.exec(l)?.[1]).find(Boolean);
    return engineDiagnosis(ctx, pkg, required, actual ?? current);
  }
  // pnpm 10: "ERR_PNPM_UNSUPPORTED_ENGINE  Unsupported environment…", then 'Your Node version is
  // incompatible with "commander@15.1.0".' (or with "/path/of/the/project"), "Expected version: >=22",
  // "Got: v20.20.2".
  const unsupported = ctx.find(/ERR_PNPM_UNSUPPORTED_ENGINE/);
  if (unsupported !== -1) {
    const near = ctx.lines.slice(unsupported, unsupported + 12);
    const pkg = near
      .map((l) => /Your Node version is incompatible with "([^"]+)"/.exec(l)?.[1])
      .find(Boolean);
    const wanted = near.map((l) => /^Expected version: (.+)$/.exec(l.trim())?.[1]).find(Boolean);
    const got = near.map((l) => /^Got: v?(\S+)$/.exec(l.trim())?.[1]).find(Boolean);
    if (pkg || wanted) return engineDiagnosis(ctx, pkg, wanted, got ?? current);
  }
  // Yarn 1: 'error x@1.0.0: The engine "node" is incompatible with this module. Expected version ">=22". Got "20.20.2"'.
  for (const line of ctx.lines) {
    const yarn =
      /(?:^error )?(\S+): The engine "node" is incompatible with this module\. Expected version "([^"]+)"\. Got "([^"]+)"/.exec(
        line,
      );
    if (yarn) return engineDiagnosis(ctx, yarn[1], yarn[2], yarn[3]!);
    // pnpm before 10: "ERR_PNPM_UNSUPPORTED_ENGINE  Unsupported engine for x@1.0.0: wanted: {"node":">=22"} (current: {"node":"v20.20.2",…})".
    const pnpm =
      /ERR_PNPM_UNSUPPORTED_ENGINE\s+Unsupported engine for (\S+?):? wanted: \{"node":"([^"]+)"\}/.exec(line);
    if (pnpm) return engineDiagnosis(ctx, pnpm[1], pnpm[2], current);
    // Tools that check for themselves: Vite, Next.js, Angular CLI, Astro.
    const tool =
      /(?:requires|required) (?:a minimum )?Node(?:\.js)? (?:version )?(?:of )?v?["']?([\d^~>=<.|x* +-]+(?: or [\d^~>=<.|x* +-]+)?)/i.exec(
        line,
      ) ?? /Node\.js version "?([^"]{1,60}?)"? is required/i.exec(line);
    if (tool) return engineDiagnosis(ctx, undefined, tool[1]!.trim().replace(/\.$/, ''), current);
  }
  return null;
}

/**
 * NODE_VERSION_MISMATCH from a warning only (npm's "warn EBADENGINE", pnpm's "WARN Unsupported
 * engine"): the install went on, so it is the cause only when nothing more specific explains the failure.
 */
export async function engineWarning(ctx: Context): Promise<Diagnosis | null> {
  const start = ctx.find(/^npm warn EBADENGINE Unsupported engine|\bWARN\b.{0,20}Unsupported engine/);
  if (start === -1) return null;
  const near = ctx.lines.slice(start, start + 6).join('\n');
  const pkg =
    /package: '([^']+)'/.exec(near)?.[1] ?? /Unsupported engine(?: for)? (\S+@\S+?):? wanted/.exec(near)?.[1];
  const wanted =
    /required: \{ node: '([^']+)'/.exec(near)?.[1] ?? /wanted: \{"node":"([^"]+)"/.exec(near)?.[1];
  const current = /current: \{ node: 'v?([^']+)'/.exec(near)?.[1] ?? ranOn(ctx);
  return engineDiagnosis(ctx, pkg, wanted, current, false);
}

/** The Node the failed step ran on: the one DependencyBot provided, else this machine's. */
const ranOn = (ctx: Context): string => {
  const node = ctx.input.blueprint?.node;
  return node?.resolved?.version ?? node?.current ?? process.versions.node;
};

/** The uploaded project's own package.json files by package name (the app's, the install folder's, the root's, its other apps'). */
async function projectNames(ctx: Context): Promise<Map<string, string>> {
  const dirs = new Set([
    ctx.appDir,
    ctx.installDir,
    '.',
    ...(ctx.input.blueprint?.apps ?? []).map((a) => a.dir),
  ]);
  const names = new Map<string, string>();
  for (const dir of dirs) {
    const file = path.posix.join(dir, 'package.json');
    try {
      const stat = await fs.promises.stat(ctx.abs(file));
      if (!stat.isFile() || stat.size > 1024 * 1024) continue;
      const name = (JSON.parse(await fs.promises.readFile(ctx.abs(file), 'utf8')) as { name?: unknown }).name;
      if (typeof name === 'string' && name !== '') names.set(name, file);
    } catch {
      // absent or unreadable: not a name of the project
    }
  }
  return names;
}

/** The refused package when it is the project itself (its package.json and name), or null for a dependency. */
async function projectItself(ctx: Context, pkg: string): Promise<{ file: string; name: string } | null> {
  const names = await projectNames(ctx);
  // pnpm names a package of the project (the root included) by its folder.
  if (path.isAbsolute(pkg)) {
    const rel = ctx.rel(pkg);
    if (rel === undefined) return null;
    const file = path.posix.join(rel, 'package.json');
    const name = [...names].find(([, f]) => f === file)?.[0];
    return { file, name: name ?? (rel === '.' ? 'the project' : rel) };
  }
  const file = names.get(stripVersion(pkg));
  return file === undefined ? null : { file, name: stripVersion(pkg) };
}

/** What Forge did about the project's Node, as a clause: "Forge fetched Node 24.22.3 for engines.node >=24.16". */
function whatForgeDid(ctx: Context): string {
  const node = ctx.input.blueprint?.node;
  if (!node) return `the plan found no Node requirement, so Forge ran this machine's Node ${ranOn(ctx)}`;
  const asked = `${nodeEvidence(node)} ${node.wanted} (${node.file})`;
  const { resolved } = node;
  if (!resolved) {
    return node.satisfied === false
      ? `Forge could not provide a Node for ${asked} and ran this machine's Node ${node.current}`
      : `Forge ran this machine's Node ${node.current} for ${asked}`;
  }
  const how =
    resolved.source === 'machine'
      ? "this machine's"
      : resolved.source === 'fetched'
        ? 'fetched from the npm registry'
        : "from Forge's toolchains";
  return `Forge ran Node ${resolved.version} (${how}) for ${asked}`;
}

async function engineDiagnosis(
  ctx: Context,
  pkg: string | undefined,
  wanted: string | undefined,
  current: string,
  /** The package manager refused it (not a warning): the range is then for certain what failed. */
  refused = true,
): Promise<Diagnosis> {
  const needs = wanted ? `Node ${wanted}` : 'another Node';
  const running = current.replace(/^v/, '');
  const node = ctx.input.blueprint?.node;
  const own = pkg ? await projectItself(ctx, pkg) : null;
  if (own !== null) {
    // The project's own engines: never advice to use another version of itself.
    return {
      code: 'NODE_VERSION_MISMATCH',
      summary: `This project (${own.name}) asks for ${needs} in ${own.file}; the ${ctx.input.step ?? 'build'} ran on Node ${running}.`,
      file: own.file,
      suggestion:
        `${whatForgeDid(ctx)}. ` +
        (node && node.file === own.file
          ? `Build again with the npm registry reachable: Forge fetches a Node that satisfies ${node.wanted} into its toolchains once.`
          : `Forge provides the Node a project asks for where it reads it (engines.node, devEngines.runtime or volta.node of the app's package.json, .nvmrc, .node-version, .tool-versions, mise.toml): state ${wanted ?? 'the range'} there${node ? ` (the plan read ${node.file})` : ''} and build again.`),
    };
  }
  const who = pkg ?? 'The project';
  // The project states no Node and a dependency names its range: declaring that range where
  // BlueprintBot reads it (engines.node) lets DependencyBot provide a Node in it. Nothing is invented.
  const pin = refused && pkg && wanted && !node && constraintRange(wanted) !== null;
  if (pin) {
    return {
      code: 'NODE_VERSION_MISMATCH',
      summary: `${who} needs ${needs} (its engines.node, as the ${ctx.input.step ?? 'install'} printed); ${ctx.appPackageJson} states no Node, so Forge ran Node ${running}.`,
      file: ctx.appPackageJson,
      suggestion: `Declare engines.node "${wanted}" in ${ctx.appPackageJson} so Forge provides that Node, or use a version of ${stripVersion(pkg)} that supports Node ${running} (an earlier major). ${REPAIR_HINT}`,
      subjects: [stripVersion(pkg), wanted],
      repair: 'PIN_NODE_VERSION',
    };
  }
  return {
    code: 'NODE_VERSION_MISMATCH',
    summary: `${who} needs ${needs}; Forge runs Node ${running}.`,
    ...(pkg ? { subjects: [stripVersion(pkg)] } : {}),
    ...(node ? { file: node.file } : {}),
    suggestion: pkg
      ? `Declare engines.node "${wanted ?? `>=${running}`}" in ${ctx.appPackageJson} so Forge provides that Node, or use a version of ${stripVersion(pkg)} that supports Node ${running} (an earlier major).`
      : `Declare the Node the project needs (engines.node "${wanted ?? 'the range'}" in ${ctx.appPackageJson}) so Forge provides it, or use versions of the tools that support Node ${running}.`,
  };
}

/**
 * NODE_VERSION_MISMATCH when DependencyBot could not provide the Node the project asks for (none is
 * published that satisfies it, its package manager needs one the project excludes, the registry could
 * not be reached): the project's requirement, and what would let Forge provide one.
 */
export function nodeUnavailable(ctx: Context): Diagnosis | null {
  const { error, blueprint } = ctx.input;
  if (error.code !== 'TOOLCHAIN_UNAVAILABLE' || !isNodeUnavailable(error.message)) return null;
  const node = blueprint?.node;
  const asked = node ? `${nodeEvidence(node)} ${node.wanted}` : 'the Node it asks for';
  let suggestion: string;
  if (/^No Node can run this build/.test(error.message)) {
    suggestion = `Make the project's Node and its package manager agree: change ${asked} in ${node?.file ?? ctx.appPackageJson}, or name a package manager version that runs on it ("packageManager" in package.json).`;
  } else if (/^No Node release satisfies/.test(error.message)) {
    suggestion = `Ask for a Node that is released: change ${asked} in ${node?.file ?? ctx.appPackageJson} to a range a published Node satisfies.`;
  } else if (/there is none for/.test(error.message)) {
    suggestion = `Run Forge on a machine whose Node satisfies ${node?.wanted ?? 'the project'}, or on an OS and CPU the npm registry publishes Node for.`;
  } else {
    suggestion =
      'Check that the npm registry is reachable (or set npm_config_registry) and build again: Forge fetches that Node once into its toolchains and reuses it offline.';
  }
  return {
    code: 'NODE_VERSION_MISMATCH',
    summary: `Forge could not provide the Node this project asks for (${asked}): ${error.message}`,
    ...(node ? { file: node.file } : {}),
    suggestion,
  };
}

/** The package managers and runtimes Forge provisions or expects on PATH. */
const PACKAGE_MANAGERS = new Set([
  'npm',
  'npx',
  'pnpm',
  'pnpx',
  'yarn',
  'yarnpkg',
  'bun',
  'bunx',
  'corepack',
  'node',
]);
/** "sh: 1: vite: not found", "sh: vite: command not found", "/bin/sh: line 1: vite: command not found", "spawn pnpm ENOENT". */
const NOT_FOUND = [
  /^(?:\/bin\/)?(?:ba|da)?sh: (?:(?:line )?\d+: )?([\w@./+-]+): (?:command )?not found$/,
  /^([\w@./+-]+): command not found$/,
  /\bspawn ([\w@./+-]+) ENOENT\b/,
  /^'([\w@./+-]+)' is not recognized as an internal or external command/,
];

/**
 * PACKAGE_MANAGER_MISSING (the toolchain could not be provisioned, or a command is not on PATH) — or
 * MISSING_PACKAGE when the missing command is the bin of a known package the project does not have.
 */
export async function commandMissing(ctx: Context): Promise<Diagnosis | null> {
  const { error, blueprint } = ctx.input;
  if (error.code === 'TOOLCHAIN_UNAVAILABLE') {
    const tool = blueprint?.toolchain?.tool ?? blueprint?.packageManager ?? 'the package manager';
    const request = blueprint?.toolchain ? ` ${blueprint.toolchain.request}` : '';
    return {
      code: 'PACKAGE_MANAGER_MISSING',
      summary: `Forge could not provide ${tool}${request}: ${error.message}`,
      ...(blueprint?.toolchain?.file ? { file: blueprint.toolchain.file } : {}),
      suggestion: `Check that the npm registry is reachable and that the version asked for exists (the packageManager field of package.json); Forge fetches ${tool} from the registry once and reuses it.`,
      subjects: [String(tool)],
    };
  }
  for (const [i, line] of ctx.lines.entries()) {
    let bin: string | undefined;
    for (const pattern of NOT_FOUND) bin ??= pattern.exec(line.trim())?.[1];
    if (!bin) continue;
    const script = scriptAbove(ctx, i);
    const runs = script
      ? `The "${script}" script runs ${bin}`
      : `The ${ctx.input.step ?? 'build'} command runs ${bin}`;
    if (!PACKAGE_MANAGERS.has(bin)) {
      const pkg = await packageOfBin(ctx, bin);
      if (pkg) {
        return packagesDiagnosis(
          ctx,
          [pkg],
          { file: ctx.appPackageJson },
          `needed (${runs.charAt(0).toLowerCase()}${runs.slice(1)})`,
        );
      }
    }
    return {
      code: 'PACKAGE_MANAGER_MISSING',
      summary: `${runs}, which is not installed or not on PATH.`,
      file: ctx.appPackageJson,
      suggestion: PACKAGE_MANAGERS.has(bin)
        ? `Forge provides npm, pnpm, Yarn and Bun itself: name the one the project uses in the packageManager field of package.json (e.g. "pnpm@10"), or call it through the package manager the project already uses.`
        : `Add the package that provides "${bin}" to the devDependencies in ${ctx.appPackageJson}, or change the script to a command that is installed.`,
      subjects: [bin],
    };
  }
  return null;
}

/** The script npm or pnpm announced above line i ("> build", "> shop@1.0.0 build /path"). */
function scriptAbove(ctx: Context, i: number): string | undefined {
  for (let j = i - 1; j >= Math.max(0, i - 20); j -= 1) {
    const m = /^> (?:\S+@\S+ )?([\w:.-]+)(?: \/\S*)?$/.exec(ctx.lines[j]!.trim());
    if (m) return m[1];
  }
  return undefined;
}
