import fs from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import type { OutputLine, RunResult } from '../exec/index.ts';
import { bunBinaryIn, bunExtraPackages, bunNativePackages } from './bun-binary.ts';
import { denoBinaryIn, denoNativePackage } from './deno-binary.ts';
import { BIN_DIR, MARKER_FILE, type ToolchainMarker } from './installed.ts';
import { ToolchainError } from './toolchain-error.ts';
import { TOOL_COMMANDS, type ToolName } from './tools.ts';

/** A command the provisioning runs (npm, then the tool's own `--version`), as the caller runs commands. */
export interface ToolCommand {
  argv: string[];
  cwd: string;
  timeoutMs: number;
  env?: Readonly<Record<string, string | undefined>>;
  onLine?: (line: OutputLine) => void;
  /** Its output is an answer for Forge (a version list), kept out of the build's log. */
  quiet?: boolean;
}

/**
 * The Node a fetched tool is to run on, chosen once its package.json is read (its engines.node, null
 * when it names none): the folders to put first on PATH when the tool runs (none: this machine's Node).
 */
export type ToolRuntime = (engines: string | null, version: string) => Promise<readonly string[]>;
export type ToolRunner = (command: ToolCommand) => Promise<RunResult>;

export interface FetchToolInput {
  tool: ToolName;
  package: string;
  /** Exact version or major, already validated. */
  request: string;
  /** Empty folder on the same file system as the toolchains folder. */
  staging: string;
  run: ToolRunner;
  timeoutMs: number;
  /** Extra environment for npm (the registry, in tests). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The registry npm fetches from, for the failure message. */
  registry: string;
  /** Which Node the tool's `--version` check runs on; this machine's when absent. */
  runtime?: ToolRuntime;
}

/** No update check, and a short retry budget: an unreachable registry fails in seconds. */
export const NPM_QUICK_FAIL = [
  '--no-update-notifier',
  '--fetch-retries=2',
  '--fetch-retry-mintimeout=1000',
  '--fetch-retry-maxtimeout=5000',
] as const;

/**
 * npm with the daemon's own registry settings (never the project's: a toolchain is shared by every
 * project), no scripts (Forge links bun's binary itself), no lockfile or package.json written, and a
 * short retry budget so an unreachable registry fails in seconds, not minutes.
 */
const npmInstall = (prefix: string, specs: readonly string[]): string[] => [
  'npm',
  'install',
  '--prefix',
  prefix,
  '--no-save',
  '--no-package-lock',
  '--no-audit',
  '--no-fund',
  '--ignore-scripts',
  ...NPM_QUICK_FAIL,
  ...specs,
];

/** npm's error lines that are not the reason: where its log is, stack frames, general advice. */
const NPM_NOISE =
  /^(A complete log of this run|Log files were not written|at |syscall |errno |In most cases|Note that you can also|tarball, folder|\d{3}$)/;

/**
 * The reason in npm's error lines, e.g. "No matching version found for pnpm@10.99.0. (ETARGET)" or
 * "FetchError: request to http://127.0.0.1:9/pnpm failed, reason: connect ECONNREFUSED 127.0.0.1:9".
 */
export function npmReason(lines: readonly string[], result: RunResult): string {
  let code: string | null = null;
  const reasons: string[] = [];
  for (const line of lines) {
    const text = /^npm (?:error|ERR!)\s*(.*)$/.exec(line)?.[1]?.trim();
    if (!text) continue;
    const isCode = /^code (\S+)$/.exec(text);
    if (isCode) code ??= isCode[1]!;
    // npm tags some lines with the code or the status ("notarget …", "404 …").
    const reason = isCode ? '' : text.replace(/^(notarget|\d{3})\s+/, '').trim();
    if (reason && !NPM_NOISE.test(reason)) reasons.push(reason);
  }
  const first = reasons[0];
  if (first) return code && !first.includes(code) ? `${first} (${code})` : first;
  return code ?? result.error ?? `npm exited with code ${result.exitCode}`;
}

function endOf(result: RunResult, what: string, registry: string, lines: readonly string[]): ToolchainError {
  if (result.outcome === 'timed-out') {
    return new ToolchainError(
      'STAGE_TIMEOUT',
      `Fetching ${what} ran past the step's time limit and was stopped.`,
    );
  }
  if (result.outcome === 'cancelled')
    return new ToolchainError('CANCELLED', `Fetching ${what} was cancelled.`);
  return new ToolchainError(
    'TOOLCHAIN_UNAVAILABLE',
    `Could not fetch ${what} from ${registry}: ${npmReason(lines, result)}`,
  );
}

async function runNpm(input: FetchToolInput, specs: string[], what: string): Promise<void> {
  const lines: string[] = [];
  const result = await input.run({
    argv: npmInstall(input.staging, specs),
    cwd: input.staging,
    timeoutMs: input.timeoutMs,
    ...(input.env ? { env: input.env } : {}),
    onLine: (line) => {
      if (line.stream === 'stderr') lines.push(line.text);
    },
  });
  if (result.outcome !== 'succeeded') throw endOf(result, what, input.registry, lines);
}

/** Where each of the tool's commands points, relative to the package folder. */
async function commandTargets(
  input: FetchToolInput,
  pkgDir: string,
  version: string,
): Promise<Map<string, string>> {
  const targets = new Map<string, string>();
  if (input.tool === 'bun') {
    for (const native of bunNativePackages()) {
      const binary = bunBinaryIn(path.join(input.staging, 'node_modules', native));
      if (
        await fs.stat(binary).then(
          (st) => st.isFile(),
          () => false,
        )
      ) {
        // bunx is bun called by another name: one binary, two links.
        for (const name of TOOL_COMMANDS.bun) targets.set(name, binary);
        break;
      }
    }
    if (targets.size === 0) {
      throw new ToolchainError(
        'TOOLCHAIN_UNAVAILABLE',
        `bun ${version} was fetched without its binary for ${process.platform}-${process.arch} (${bunNativePackages().join(' or ')} was not installed).`,
      );
    }
    return targets;
  }
  if (input.tool === 'deno') {
    const native = denoNativePackage();
    const binary = native ? denoBinaryIn(path.join(input.staging, 'node_modules', native)) : null;
    const there =
      binary !== null &&
      (await fs.stat(binary).then(
        (st) => st.isFile(),
        () => false,
      ));
    if (!there) {
      throw new ToolchainError(
        'TOOLCHAIN_UNAVAILABLE',
        native
          ? `deno ${version} was fetched without its binary for ${process.platform}-${process.arch} (${native} was not installed).`
          : `Deno publishes no binary for ${process.platform}-${process.arch} on the npm registry.`,
      );
    }
    return new Map([['deno', binary]]);
  }
  const manifest = JSON.parse(await fs.readFile(path.join(pkgDir, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bins = typeof manifest.bin === 'string' ? { [input.tool]: manifest.bin } : (manifest.bin ?? {});
  for (const name of TOOL_COMMANDS[input.tool]) {
    const rel = bins[name];
    if (typeof rel === 'string' && !path.isAbsolute(rel) && !rel.split(/[\\/]/).includes('..')) {
      targets.set(name, path.join(pkgDir, rel));
    }
  }
  if (!targets.has(input.tool)) {
    throw new ToolchainError(
      'TOOLCHAIN_UNAVAILABLE',
      `${input.package}@${version} has no "${input.tool}" command in its package.json "bin".`,
    );
  }
  return targets;
}

/** Relative links, so the folder keeps working after it is renamed from staging into place. */
async function linkCommands(staging: string, targets: Map<string, string>): Promise<void> {
  const binDir = path.join(staging, BIN_DIR);
  await fs.mkdir(binDir, { recursive: true });
  for (const [name, target] of targets) {
    await fs.chmod(target, 0o755);
    await fs.symlink(path.relative(binDir, target), path.join(binDir, name));
  }
}

/** PATH with `dirs` first, for a command that must run on a provisioned Node. */
export const pathWith = (dirs: readonly string[], inherited = process.env.PATH ?? ''): string =>
  [...dirs, ...(inherited ? [inherited] : [])].join(path.delimiter);

/**
 * The tool must run here and say it is the version installed (a bun built for another CPU would not,
 * nor a Node for another C library). `node --version` prints a leading "v".
 */
async function verify(input: FetchToolInput, version: string, runtime: readonly string[]): Promise<void> {
  const out: string[] = [];
  const result = await input.run({
    argv: [path.join(input.staging, BIN_DIR, input.tool), '--version'],
    cwd: input.staging,
    timeoutMs: Math.min(input.timeoutMs, 60_000),
    ...(runtime.length > 0 ? { env: { PATH: pathWith(runtime) } } : {}),
    onLine: (line) => out.push(line.text.trim().replace(/^v(?=\d)/, '')),
  });
  if (result.outcome === 'cancelled')
    throw new ToolchainError('CANCELLED', `Checking ${input.tool} was cancelled.`);
  // `deno --version` says "deno 2.9.6 (stable, release, …)" on its first line.
  const says = (line: string) => line === version || line.startsWith(`${input.tool} ${version} `);
  if (result.outcome !== 'succeeded' || !out.some(says)) {
    const said = out.filter(Boolean).slice(-2).join(' · ') || result.error || `exit code ${result.exitCode}`;
    throw new ToolchainError(
      'TOOLCHAIN_UNAVAILABLE',
      `${input.package}@${version} was fetched but \`${input.tool} --version\` does not run here: ${said}`,
    );
  }
}

/**
 * Fetch `package@request` from the npm registry into `staging` with the npm that ships with Node, link
 * its commands into staging/bin, check it runs, and write the marker. The caller renames the folder
 * into place. Throws a ToolchainError saying what was tried.
 */
export async function fetchTool(input: FetchToolInput): Promise<ToolchainMarker> {
  const spec = `${input.package}@${input.request}`;
  await fs.mkdir(input.staging, { recursive: true });
  await runNpm(input, [spec], spec);

  const pkgDir = path.join(input.staging, 'node_modules', input.package);
  const manifest = JSON.parse(
    await fs.readFile(path.join(pkgDir, 'package.json'), 'utf8').catch(() => '{}'),
  ) as { version?: unknown; engines?: { node?: unknown } };
  const version = typeof manifest.version === 'string' ? semver.valid(manifest.version) : null;
  if (!version) {
    throw new ToolchainError(
      'TOOLCHAIN_UNAVAILABLE',
      `npm installed ${spec} but left no readable ${input.package}/package.json.`,
    );
  }
  if (input.tool === 'bun') {
    const extra = bunExtraPackages(version);
    if (extra.length > 0) await runNpm(input, extra, extra.join(' '));
  }
  await linkCommands(input.staging, await commandTargets(input, pkgDir, version));
  const engines = typeof manifest.engines?.node === 'string' ? manifest.engines.node : null;
  await verify(input, version, (await input.runtime?.(engines, version)) ?? []);

  const hidden = JSON.parse(
    await fs
      .readFile(path.join(input.staging, 'node_modules', '.package-lock.json'), 'utf8')
      .catch(() => '{}'),
  ) as { packages?: Record<string, { integrity?: unknown }> };
  const integrity = hidden.packages?.[`node_modules/${input.package}`]?.integrity;
  const marker: ToolchainMarker = {
    package: input.package,
    version,
    integrity: typeof integrity === 'string' ? integrity : null,
    fetchedAt: new Date().toISOString(),
  };
  await fs.writeFile(path.join(input.staging, MARKER_FILE), `${JSON.stringify(marker, null, 2)}\n`);
  return marker;
}
