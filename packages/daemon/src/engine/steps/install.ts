import fs from 'node:fs';
import path from 'node:path';
import { formatCommand, formatDuration, type Blueprint } from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import { discardDir } from '../../fs/moves.ts';
import { installKey, isWorkspaceInstall, readInstallKey, writeInstallKey } from '../install-cache.ts';
import { OutputEvidence } from '../../capabilities/tool-output/first-error.ts';
import { isStoreInstall, usesStore } from '../../capabilities/toolchains/index.ts';
import { registryFor } from '../../capabilities/toolchains/registry.ts';
import { useReachableRegistry } from '../../capabilities/toolchains/registry-mirror.ts';
import { DiskFullWatch } from '../../fs/disk-full.ts';
import { withFileLock } from '../../fs/file-lock.ts';
import { forgeCaches } from '../../capabilities/exec/index.ts';
import { readSkippedScripts, writeSkippedScripts } from '../../capabilities/exec/skipped-scripts.ts';
import { PINS_FILE, PINS_PLACEHOLDER, writePins } from '../../capabilities/detect/python-lock.ts';
import { venvDir } from './stack-toolchain.ts';
import {
  commandFailure,
  diskFullFailure,
  failure,
  type Step,
  type StepContext,
  type StepResult,
} from './types.ts';

/**
 * Another stack's install (pip into the project's virtual environment, composer): its own tool in the
 * app's folder, with the failure's first error and last lines; no node_modules to keep or reuse.
 */
async function installOtherStack(
  ctx: StepContext,
  bp: Blueprint,
  projectDir: string,
  layout: HomeLayout,
): Promise<StepResult<void>> {
  let argv = bp.install!;
  const text = formatCommand(argv);
  const cwd = path.join(projectDir, bp.installDir);
  if (argv.includes(PINS_PLACEHOLDER)) {
    // The plan's {pins}: the versions of the project's lockfile, as a constraints file in its
    // virtual environment (written anew each install, so it is always this upload's lock).
    const pins = path.join(venvDir(layout, ctx.projectName), PINS_FILE);
    try {
      const lock = writePins(cwd, pins);
      ctx.log(
        'info',
        `${lock.pins.size} version${lock.pins.size === 1 ? '' : 's'} pinned from ${lock.file} (${path.relative(layout.home, pins)})${lock.unpinned.length ? `; not pinned: ${lock.unpinned.map((u) => u.name).join(', ')}` : ''}.`,
      );
    } catch (err) {
      return {
        ok: false,
        failure: failure(
          'failed',
          'INSTALL_FAILED',
          `Forge could not read the lockfile the plan pins from: ${(err as Error).message}.`,
        ),
      };
    }
    argv = argv.map((arg) => (arg === PINS_PLACEHOLDER ? pins : arg));
  }
  const output = new OutputEvidence({ projectDir, cwd });
  const result = await ctx.run({
    argv,
    cwd,
    env: bp.env,
    timeoutMs: bp.timeoutMs,
    onLine: (l) => output.onLine(l),
  });
  const failed = commandFailure(result, text, 'INSTALL_FAILED', output);
  if (failed) return { ok: false, failure: failed };
  const took = formatDuration(result.durationMs);
  ctx.log('success', `${text} finished in ${took}`);
  return { ok: true, value: undefined, detail: `${text} (${took})` };
}

/**
 * Yarn 1 corrupts its cache when two installs write it at once ("corrupt tarball", a missing
 * .yarn-metadata.json): every Yarn 1 install of every build holds the cache's lock while it runs,
 * across processes (daemons and workers sharing a YARN_CACHE_FOLDER), so builds of Yarn 1 projects
 * side by side install one after the other. The lock is Forge's (fs/file-lock.ts), not Yarn's own
 * `--mutex file:`, which crashes the install with ECOMPROMISED when Yarn's event loop is held up
 * for a few seconds on a busy machine. The cache is the one the install uses: the project's
 * YARN_CACHE_FOLDER, else Forge's (FORGE_HOME/caches/yarn). Null for every other install.
 */
export function yarnCacheLock(bp: Blueprint, cachesDir: string): string | null {
  const argv = bp.install!;
  const classic = bp.packageManager === 'yarn' && bp.toolchain?.package === 'yarn';
  if (!classic || argv[0] !== 'yarn' || argv.some((a) => a.startsWith('--mutex'))) return null;
  const cache = bp.env.YARN_CACHE_FOLDER ?? forgeCaches(cachesDir).YARN_CACHE_FOLDER!;
  return path.join(cache, '.forge-install-lock');
}

/** Yarn 1's wait for a silent download, when the project does not set one (Yarn's own is 30 s). */
export const YARN_NETWORK_TIMEOUT_MS = 600_000;

/**
 * Yarn 1 gives up on a download that sends nothing for 30 s (ESOCKETTIMEDOUT), which a big tarball
 * through a busy proxy or on a loaded machine can do, and the whole install fails. Forge gives it
 * YARN_NETWORK_TIMEOUT_MS unless the project chose its own (`network-timeout` in its .yarnrc, or
 * YARN_NETWORK_TIMEOUT in the forge config's env): Yarn lets the variable win over the .yarnrc.
 */
export function withYarnNetworkTimeout(
  env: Record<string, string>,
  projectDir: string,
): Record<string, string> {
  if (env.YARN_NETWORK_TIMEOUT !== undefined) return env;
  const yarnrc = readTextIfSmall(path.join(projectDir, '.yarnrc'));
  if (yarnrc !== null && /^\s*"?network-timeout"?\s/m.test(yarnrc)) return env;
  return { ...env, YARN_NETWORK_TIMEOUT: String(YARN_NETWORK_TIMEOUT_MS) };
}

function readTextIfSmall(file: string): string | null {
  try {
    return fs.statSync(file).size <= 64 * 1024 ? fs.readFileSync(file, 'utf8') : null;
  } catch {
    return null;
  }
}

/**
 * DependencyBot: install the project's dependencies with its own package manager, or reuse the
 * node_modules of an earlier install with the same install key (lockfile, package.json, package
 * manager and its exact version, install folder, Node), kept in the project or set aside by ExtractBot
 * (never for a workspace install, whose nested node_modules are not kept). pnpm installs — a pnpm
 * project's, or an npm project's without a lockfile — share the store in FORGE_HOME.
 */
export function installStep(deps: { layout: HomeLayout }): Step<Blueprint, void> {
  const { layout } = deps;
  return {
    name: 'install',
    bot: 'DependencyBot',
    label: (projectName) => `install ${projectName}`,
    run: (ctx, bp) => installIn(ctx, bp, { layout, root: layout.projectDir(ctx.projectName), kept: true }),
  };
}

/**
 * The install of the project at `root` (the project's folder, or RepairBot's scratch copy of it, where
 * `kept` is false: the node_modules ExtractBot set aside belong to the project, never to a trial).
 */
export async function installIn(
  ctx: StepContext,
  bp: Blueprint,
  where: { layout: HomeLayout; root: string; kept: boolean },
): Promise<StepResult<void>> {
  const { layout } = where;
  if ((bp.stack ?? 'javascript') !== 'javascript') return installOtherStack(ctx, bp, where.root, layout);
  const argv = bp.install!;
  const projectDir = path.join(where.root, bp.installDir);
  const nodeModules = path.join(projectDir, 'node_modules');
  const kept = path.join(layout.depsDir(ctx.projectName), 'node_modules');
  if (bp.mirrorHosts?.length && bp.env.npm_config_replace_registry_host === undefined) {
    // A lockfile resolved against a mirror this machine does not reach: its URLs, and nothing
    // else, now name the registry Forge reaches (the plan's "registry" decision says so).
    const registry = registryFor('forge-registry-probe');
    const done = await useReachableRegistry(projectDir, bp.mirrorHosts, registry, layout.tmpDir);
    if (done) {
      ctx.log(
        'info',
        `${done.file}: ${done.count} resolved URL${done.count === 1 ? '' : 's'} on ${bp.mirrorHosts.join(', ')} now point at ${registry} (the lockfile only; the upload's own is restored by uploading it again).`,
      );
    }
  }
  // The exact version the toolchain step provisioned is in the build's plan, not yet in `bp`.
  const toolchain = ctx.build().blueprint?.toolchain ?? bp.toolchain;
  const key = await installKey(projectDir, { ...bp, toolchain });
  if (
    (await readInstallKey(nodeModules)) !== key &&
    where.kept &&
    (await readInstallKey(kept)) === key &&
    !(await isWorkspaceInstall(projectDir, bp))
  ) {
    discardDir(nodeModules, layout.tmpDir);
    fs.renameSync(kept, nodeModules);
  }
  if ((await readInstallKey(nodeModules)) === key) {
    ctx.log('success', 'Dependencies unchanged since the last install: reusing node_modules.');
    return {
      ok: true,
      value: undefined,
      detail: 'reused node_modules (lockfile unchanged)',
      stepStatus: 'cached',
    };
  }
  discardDir(nodeModules, layout.tmpDir);
  const text = formatCommand(argv);
  const output = new OutputEvidence({ projectDir: where.root, cwd: projectDir });
  const space = new DiskFullWatch();
  const store = usesStore(argv) ? layout.storeDir : null;
  if (store) {
    // FORGE_HOME is then one writable mount with what is already in it bound read-only over it:
    // its folders must exist before the install starts to be protected.
    const outputs = path.dirname(layout.outputDir('_'));
    const keptDirs = path.dirname(layout.depsDir('_'));
    for (const dir of [store, layout.toolchainsDir, layout.tmpDir, outputs, keptDirs]) {
      fs.mkdirSync(dir, { recursive: true });
    }
  }
  const lock = yarnCacheLock(bp, layout.cachesDir);
  const env = lock ? withYarnNetworkTimeout(bp.env, projectDir) : bp.env;
  // The end of the output: where npm lists the install scripts it did not run.
  const lines: string[] = [];
  const install = () =>
    ctx.run({
      argv,
      cwd: projectDir,
      env: store ? { ...env, npm_config_store_dir: store } : env,
      timeoutMs: bp.timeoutMs,
      // The store and the project on one mount: pnpm hard-links instead of copying.
      ...(store ? { writable: [store], linkedRoot: layout.home } : {}),
      onLine: (line) => {
        output.onLine(line);
        space.onLine(line);
        lines.push(line.text);
        if (lines.length > 400) lines.shift();
      },
    });
  const result = lock
    ? await withFileLock(lock, install, {
        signal: ctx.signal,
        onWait: () => ctx.log('info', 'Waiting for another Yarn 1 install that writes the same cache…'),
      })
    : await install();
  const failed = commandFailure(result, text, 'INSTALL_FAILED', output);
  const full = diskFullFailure(failed, text, space, projectDir);
  if (full) {
    // A half-written node_modules is no install: removed, and its space given back.
    discardDir(nodeModules, layout.tmpDir);
    return { ok: false, failure: full };
  }
  if (failed) return { ok: false, failure: failed };
  await writeInstallKey(nodeModules, key);
  const skipped = readSkippedScripts(lines);
  if (fs.existsSync(nodeModules)) writeSkippedScripts(nodeModules, skipped);
  if (skipped.length > 0) {
    ctx.log(
      'info',
      `npm did not run the install scripts of ${skipped.map((s) => s.name).join(', ')}: dependencies' scripts run only when package.json's "allowScripts" approves them (npm install-scripts approve <pkg>).`,
    );
  }
  const took = formatDuration(result.durationMs);
  if (isStoreInstall(bp)) {
    ctx.log('success', `Installed from Forge's shared store with pnpm (hoisted) in ${took}: no lockfile.`);
    return {
      ok: true,
      value: undefined,
      detail: `no lockfile: from Forge's shared store with pnpm (${took})`,
    };
  }
  ctx.log('success', `${text} finished in ${took}`);
  return { ok: true, value: undefined, detail: `${text} (${took})` };
}
