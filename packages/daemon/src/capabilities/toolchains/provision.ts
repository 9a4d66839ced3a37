import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fetchTool, type ToolRunner, type ToolRuntime } from './fetch-tool.ts';
import {
  findInstalled,
  LOCKS_DIR,
  STAGING_DIR,
  toolchainDirName,
  toolEngines,
  type InstalledToolchain,
  type ToolchainMarker,
} from './installed.ts';
import { registryFor } from './registry.ts';
import { withToolLock } from './tool-lock.ts';
import { ToolchainError } from './toolchain-error.ts';
import { isValidRequest, type PackageHash, type ToolName } from './tools.ts';

export interface ToolchainRequest {
  tool: ToolName;
  package: string;
  /** An exact version ("10.20.0") or a major ("10"). */
  request: string;
  /** The tarball hash the project's `packageManager` field carries (Corepack's `+sha512.…`), if any. */
  hash?: PackageHash | null;
}

export interface ProvisionOptions {
  /** FORGE_HOME/toolchains. */
  toolchainsDir: string;
  /** Runs npm and the tool's `--version` check (the build's sandboxed runner in the pipeline). */
  run: ToolRunner;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Extra environment for npm, e.g. a registry; also names the registry in a failure message. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Progress lines ("fetching pnpm@10 from …"). */
  log?: (level: 'info' | 'warn', message: string) => void;
  /**
   * Told the tool's engines.node once its package.json is known (installed or just fetched), before
   * the tool runs: answers with the Node to run it on (see fetch-tool.ts). Throwing a ToolchainError
   * ends the provisioning with it.
   */
  runtime?: ToolRuntime;
}

export interface ProvisionedToolchain {
  package: string;
  version: string;
  /** The toolchain's folder, FORGE_HOME/toolchains/<package>@<version>. */
  dir: string;
  /** Its commands (pnpm, pnpx…), to put first on PATH. */
  binDir: string;
  /** False when it was already installed and reused without the network. */
  fetched: boolean;
  durationMs: number;
}

/** npm's integrity "sha512-<base64>" as the lowercase hex Corepack writes. */
const integrityHex = (integrity: string | null, algorithm: string): string | null => {
  const [algo, digest] = integrity?.split('-', 2) ?? [];
  return algo === algorithm && digest ? Buffer.from(digest, 'base64').toString('hex') : null;
};

/** The project's hash must be the tarball's (npm records sha512 for every tarball it fetches). */
function checkHash(req: ToolchainRequest, marker: ToolchainMarker, opts: ProvisionOptions): void {
  if (!req.hash) return;
  const got = integrityHex(marker.integrity, req.hash.algorithm);
  if (got === null) {
    opts.log?.(
      'warn',
      `"packageManager" carries a ${req.hash.algorithm} hash; npm records ${marker.integrity?.split('-')[0] ?? 'no'} hashes, so it was not checked.`,
    );
    return;
  }
  if (got !== req.hash.hex) {
    throw new ToolchainError(
      'TOOLCHAIN_UNAVAILABLE',
      `${req.package}@${marker.version} from the registry does not match the ${req.hash.algorithm} hash in "packageManager" ` +
        `(expected ${req.hash.hex.slice(0, 12)}…, got ${got.slice(0, 12)}…).`,
    );
  }
}

const reused = (found: InstalledToolchain, started: number): ProvisionedToolchain => ({
  package: found.marker.package,
  version: found.marker.version,
  dir: found.dir,
  binDir: found.binDir,
  fetched: false,
  durationMs: Math.round(performance.now() - started),
});

/** Fetches of this package this process started and did not finish (a crash or kill leaves them). */
async function clearStaging(stagingRoot: string, prefix: string): Promise<void> {
  const names = await fs.readdir(stagingRoot).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name.startsWith(prefix))
      .map((name) => fs.rm(path.join(stagingRoot, name), { recursive: true, force: true })),
  );
}

/**
 * The package manager a build asks for, ready to run: an installed one that satisfies the request is
 * reused without the network (a major takes the newest installed release of it); otherwise, holding the
 * package's lock so no two builds fetch it at once, it is fetched into staging and renamed into
 * FORGE_HOME/toolchains/<package>@<version> in one step. Throws a ToolchainError.
 */
export async function provisionToolchain(
  req: ToolchainRequest,
  opts: ProvisionOptions,
): Promise<ProvisionedToolchain> {
  const started = performance.now();
  if (!isValidRequest(req.request)) {
    throw new ToolchainError(
      'TOOLCHAIN_UNAVAILABLE',
      `"${req.request}" is not a version Forge can fetch ${req.package} at.`,
    );
  }
  const spec = `${req.package}@${req.request}`;
  const { toolchainsDir } = opts;
  const ready = await findInstalled(toolchainsDir, req.package, req.request);
  if (ready) {
    checkHash(req, ready.marker, opts);
    await opts.runtime?.(await toolEngines(ready), ready.marker.version);
    return reused(ready, started);
  }

  try {
    return await withToolLock(
      path.join(toolchainsDir, LOCKS_DIR),
      req.package,
      async () => {
        // Another build may have fetched it while this one waited for the lock.
        const fetchedMeanwhile = await findInstalled(toolchainsDir, req.package, req.request);
        if (fetchedMeanwhile) {
          checkHash(req, fetchedMeanwhile.marker, opts);
          await opts.runtime?.(await toolEngines(fetchedMeanwhile), fetchedMeanwhile.marker.version);
          return reused(fetchedMeanwhile, started);
        }
        const stagingRoot = path.join(toolchainsDir, STAGING_DIR);
        const prefix = `${toolchainDirName(req.package, '')}`;
        await clearStaging(stagingRoot, prefix);
        const staging = path.join(
          stagingRoot,
          `${prefix}${req.request}-${crypto.randomBytes(4).toString('hex')}`,
        );
        const registry = registryFor(req.package, { ...process.env, ...opts.env });
        opts.log?.('info', `Fetching ${spec} from ${registry} into Forge's toolchains…`);
        try {
          const marker = await fetchTool({
            tool: req.tool,
            package: req.package,
            request: req.request,
            staging,
            run: opts.run,
            timeoutMs: opts.timeoutMs,
            registry,
            ...(opts.env ? { env: opts.env } : {}),
            ...(opts.runtime ? { runtime: opts.runtime } : {}),
          });
          checkHash(req, marker, opts);
          const dir = path.join(toolchainsDir, toolchainDirName(req.package, marker.version));
          try {
            await fs.rename(staging, dir);
          } catch (err) {
            // Another process put the same version in place first: theirs is as good as ours.
            const code = (err as NodeJS.ErrnoException).code;
            if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
          }
          const placed = await findInstalled(toolchainsDir, req.package, marker.version);
          if (!placed)
            throw new ToolchainError('TOOLCHAIN_UNAVAILABLE', `${spec} could not be put in place in ${dir}.`);
          return { ...reused(placed, started), fetched: true };
        } finally {
          await fs.rm(staging, { recursive: true, force: true });
        }
      },
      opts.signal,
    );
  } catch (err) {
    if (err instanceof ToolchainError) throw err;
    if (opts.signal?.aborted) throw new ToolchainError('CANCELLED', `Fetching ${spec} was cancelled.`);
    throw err;
  }
}
