import fs from 'node:fs';
import path from 'node:path';
import { formatDuration, type Blueprint, type StackRuntime } from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import {
  findStackTool,
  missingInstallTool,
  onPath,
  satisfiesMinimum,
  type FoundTool,
  type MissingTool,
} from '../../capabilities/toolchains/stack-tool.ts';
import {
  DEFAULT_DENO_MAJOR,
  provisionToolchain,
  registryFor,
  ToolchainError,
} from '../../capabilities/toolchains/index.ts';
import { EXACT_VERSION } from '../../capabilities/toolchains/tools.ts';
import { installCommand } from '../../capabilities/toolchains/system-packages.ts';
import type { ProvisionedTools } from './provisioned-tools.ts';
import { failure, type StepContext, type StepResult } from './types.ts';

/** A project's Python virtual environment: FORGE_HOME/venvs/<project>, kept between its builds. */
export const venvDir = (layout: HomeLayout, projectName: string): string =>
  path.join(layout.home, 'venvs', projectName);

/** A project's own gems (a Jekyll site's Gemfile bundle): FORGE_HOME/gems/<project>, kept between its builds. */
export const gemsDir = (layout: HomeLayout, projectName: string): string =>
  path.join(layout.home, 'gems', projectName);

/**
 * What a virtual environment was made with (its pyvenv.cfg: Python version, and whether it sees the
 * interpreter's own packages), or null when there is none.
 */
function venvKind(dir: string): string | null {
  try {
    const cfg = fs.readFileSync(path.join(dir, 'pyvenv.cfg'), 'utf8');
    const version = /^version(?:_info)?\s*=\s*(\S+)/m.exec(cfg)?.[1];
    const system = /^include-system-site-packages\s*=\s*true/m.test(cfg);
    return fs.existsSync(path.join(dir, 'bin', 'python')) && version
      ? `${version}${system ? '+system' : ''}`
      : null;
  } catch {
    return null;
  }
}

/**
 * The project's virtual environment, first on PATH: reused when made with the same Python, else made
 * anew with `python` (`systemSite`: seeing that Python's own packages, as MkDocs' plugins need the
 * machine's mkdocs).
 */
async function provideVenv(
  ctx: StepContext,
  bp: Blueprint,
  layout: HomeLayout,
  tools: ProvisionedTools,
  python: FoundTool,
  systemSite: boolean,
): Promise<StepResult<string>> {
  const runtime = bp.runtime!;
  const venv = venvDir(layout, ctx.projectName);
  tools.path = [path.join(venv, 'bin')];
  tools.env = { ...tools.env, VIRTUAL_ENV: venv, PIP_CACHE_DIR: path.join(layout.cachesDir, 'pip') };
  fs.mkdirSync(tools.env.PIP_CACHE_DIR!, { recursive: true });
  const kind = `${python.version}${systemSite ? '+system' : ''}`;
  if (venvKind(venv) === kind) {
    ctx.log(
      'info',
      `Virtual environment reused: ${path.relative(layout.home, venv)} (Python ${python.version}).`,
    );
    return { ok: true, value: '; its virtual environment reused', detail: '' };
  }
  fs.rmSync(venv, { recursive: true, force: true });
  fs.mkdirSync(venv, { recursive: true });
  const result = await ctx.run({
    argv: [python.path, '-m', 'venv', ...(systemSite ? ['--system-site-packages'] : []), venv],
    cwd: path.join(layout.projectDir(ctx.projectName), bp.appDir),
    env: bp.env,
    timeoutMs: bp.timeoutMs,
    writable: [venv],
  });
  if (result.outcome !== 'succeeded') {
    const status =
      result.outcome === 'cancelled' ? 'cancelled' : result.outcome === 'timed-out' ? 'timed-out' : 'failed';
    const install = bp.stack === 'python' ? runtime.installCommand : installCommand(PYTHON_VENV);
    return {
      ok: false,
      failure: {
        ...failure(
          status,
          status === 'cancelled' ? 'CANCELLED' : 'TOOLCHAIN_UNAVAILABLE',
          `${python.path} -m venv could not make the project's virtual environment (${result.error ?? `exit code ${result.exitCode}`}). Install it with: ${install}`,
        ),
        hint: `Python's venv module comes with ${install.replace(/^.*install (-y )?/, '')}: install it, then build again.`,
      },
    };
  }
  ctx.log(
    'success',
    `Virtual environment made in ${formatDuration(result.durationMs)}: ${path.relative(layout.home, venv)}.`,
  );
  return { ok: true, value: '; a new virtual environment', detail: '' };
}

/** What carries Python's venv module, for a stack other than Python that makes one (MkDocs). */
const PYTHON_VENV = {
  apt: ['python3-venv'],
  dnf: ['python3'],
  apk: ['python3'],
  brew: ['python'],
  otherwise: 'install Python 3 from https://www.python.org/downloads/',
};

/** The Python that runs a script (its `#!` line), when that is an executable file; else null. */
async function interpreterOf(script: string, signal?: AbortSignal): Promise<FoundTool | null> {
  let first = '';
  try {
    first = fs.readFileSync(script, 'utf8').split('\n', 1)[0] ?? '';
  } catch {
    return null;
  }
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(first);
  const interpreter =
    shebang?.[1] && path.basename(shebang[1]) === 'env' && shebang[2]
      ? onPath(shebang[2], process.env.PATH ?? '')
      : (shebang?.[1] ?? null);
  if (!interpreter || !/python/.test(path.basename(interpreter))) return null;
  const found = await findStackTool(
    {
      stack: 'python',
      decisions: [],
      runtime: {
        tool: path.basename(interpreter),
        wanted: null,
        minimum: null,
        versionFile: null,
        installCommand: '',
        buildable: true,
        found: null,
        source: null,
      },
    },
    path.dirname(interpreter),
    signal,
  );
  return 'message' in found ? null : found;
}

/** Deno as found: this machine's, or one in FORGE_HOME/toolchains (fetched now or before). */
type ProvidedDeno = FoundTool & { source: 'machine' | 'toolchains' | 'fetched' };

/**
 * The npm request for the Deno a project asks for: its exact version, else the major of the lowest
 * version it allows, else the current major.
 */
export function denoRequest(runtime: Pick<StackRuntime, 'wanted' | 'minimum'>): string {
  const wanted = runtime.wanted?.trim().replace(/^v/, '') ?? '';
  if (EXACT_VERSION.test(wanted)) return wanted;
  return runtime.minimum?.split('.')[0] ?? String(DEFAULT_DENO_MAJOR);
}

/**
 * Deno: this machine's when it is the version the project asks for (the same exact version, or the
 * same major and no older than asked; any, when nothing is asked), else the `deno` package from the
 * npm registry into FORGE_HOME/toolchains (reused by every project, offline once there).
 */
async function provideDeno(
  ctx: StepContext,
  runtime: StackRuntime,
  machine: FoundTool | MissingTool,
  layout: HomeLayout,
): Promise<StepResult<ProvidedDeno>> {
  const request = denoRequest(runtime);
  if (!('message' in machine)) {
    const fits = EXACT_VERSION.test(request)
      ? machine.version === request
      : runtime.minimum === null ||
        (machine.version.split('.')[0] === request && satisfiesMinimum(machine.version, runtime.minimum));
    if (fits) return { ok: true, value: { ...machine, source: 'machine' }, detail: '' };
    ctx.log(
      'info',
      `deno ${machine.version} of this machine (${machine.path}) is not the deno ${runtime.wanted} ${runtime.versionFile} asks for.`,
    );
  }
  try {
    const provided = await provisionToolchain(
      { tool: 'deno', package: 'deno', request },
      {
        toolchainsDir: layout.toolchainsDir,
        run: (command) => ctx.run(command),
        timeoutMs: ctx.build().blueprint?.timeoutMs ?? 600_000,
        signal: ctx.signal,
        log: (level, message) => ctx.log(level, message),
      },
    );
    const where = provided.fetched
      ? `fetched in ${formatDuration(provided.durationMs)} into ${path.relative(layout.home, provided.dir)}`
      : `from ${path.relative(layout.home, provided.dir)}`;
    ctx.log(
      provided.fetched ? 'success' : 'info',
      `deno ${provided.version}: ${where} (${runtime.wanted ? `${runtime.versionFile} asks for ${runtime.wanted}` : `no version stated: deno ${request}`}).`,
    );
    return {
      ok: true,
      value: {
        path: path.join(provided.binDir, 'deno'),
        version: provided.version,
        source: provided.fetched ? 'fetched' : 'toolchains',
      },
      detail: where,
    };
  } catch (err) {
    if (!(err instanceof ToolchainError)) throw err;
    const status =
      err.code === 'STAGE_TIMEOUT' ? 'timed-out' : err.code === 'CANCELLED' ? 'cancelled' : 'failed';
    return {
      ok: false,
      failure: {
        ...failure(
          status,
          err.code,
          `${err.message} Deno is fetched from the npm registry; without it, install it with: ${runtime.installCommand}`,
        ),
        hint: `Let the daemon reach the npm registry (Deno comes from its deno package), or install deno (\`${runtime.installCommand}\`) on the machine that runs Forge, then build again.`,
      },
    };
  }
}

/**
 * DependencyBot for a stack other than JavaScript: this machine's tool when it satisfies the version the
 * project asks for, else TOOLCHAIN_UNAVAILABLE naming the stack, its evidence, the tool and version and
 * the command that installs it. Python gets its virtual environment (made once per project and Python
 * version) first on PATH; Go its module and build caches in FORGE_HOME/caches.
 */
export async function provideStackTool(
  ctx: StepContext,
  bp: Blueprint,
  layout: HomeLayout,
): Promise<StepResult<ProvisionedTools>> {
  const runtime = bp.runtime!;
  const tools: ProvisionedTools = { path: [], tool: null, node: null, requirement: null, env: {} };
  const machine = await findStackTool(bp, process.env.PATH ?? '', ctx.signal);
  const deno = bp.stack === 'deno' ? await provideDeno(ctx, runtime, machine, layout) : null;
  if (deno && !deno.ok) return deno;
  const found = deno?.ok ? deno.value : machine;
  if ('message' in found) {
    return {
      ok: false,
      failure: { ...failure('failed', 'TOOLCHAIN_UNAVAILABLE', found.message), hint: found.hint },
    };
  }
  const source = deno?.ok ? deno.value.source : 'machine';
  ctx.record({
    blueprint: {
      ...(ctx.build().blueprint ?? bp),
      runtime: { ...runtime, found: found.version, source },
    },
  });
  const why = runtime.minimum ? ` (satisfies ${runtime.minimum} or newer, ${runtime.versionFile})` : '';
  let detail = `${runtime.tool} ${found.version} ${source === 'machine' ? 'of this machine' : source === 'fetched' ? 'fetched into toolchains/' : 'from toolchains/'}${why}`;
  if (source === 'machine')
    ctx.log('info', `${runtime.tool} ${found.version}: this machine's, ${found.path}${why}.`);

  // A plan Forge cannot run only needed to know the tool is there: nothing to make for it.
  if (bp.kind === 'unknown') return { ok: true, value: tools, detail, stepStatus: 'cached' };
  const installTool = missingInstallTool(bp, process.env.PATH ?? '');
  if (installTool) {
    return {
      ok: false,
      failure: { ...failure('failed', 'TOOLCHAIN_UNAVAILABLE', installTool.message), hint: installTool.hint },
    };
  }
  if (deno?.ok) {
    tools.path = [path.dirname(deno.value.path)];
    // Deno's module and npm caches are Forge's, shared by projects; npm: specifiers are fetched from
    // the registry the daemon uses (Deno reads npm's variable).
    tools.env = {
      DENO_DIR: path.join(layout.cachesDir, 'deno'),
      NPM_CONFIG_REGISTRY: registryFor('deno'),
      DENO_NO_UPDATE_CHECK: '1',
    };
    fs.mkdirSync(tools.env.DENO_DIR!, { recursive: true });
    return deno.value.source === 'fetched'
      ? { ok: true, value: tools, detail }
      : { ok: true, value: tools, detail, stepStatus: 'cached' };
  }
  if (bp.stack === 'python') {
    const venv = await provideVenv(ctx, bp, layout, tools, found, false);
    if (!venv.ok) return venv;
    detail += venv.value;
  } else if (bp.stack === 'mkdocs' && bp.install) {
    // The site's own themes and plugins go into its virtual environment, made over the Python that
    // runs this machine's mkdocs so mkdocs itself (and what it needs) is there without an index.
    const python = await interpreterOf(found.path, ctx.signal);
    if (!python) {
      return {
        ok: false,
        failure: {
          ...failure(
            'failed',
            'TOOLCHAIN_UNAVAILABLE',
            `MkDocs (${bp.decisions.find((d) => d.field === 'install')?.file ?? 'requirements.txt'}) installs the site's plugins into a virtual environment over the Python that runs mkdocs; ${found.path} names no Python that can make one. Install it with: ${runtime.installCommand}`,
          ),
          hint: `Install mkdocs with this OS's Python (\`${runtime.installCommand}\`) on the machine that runs Forge, then build again.`,
        },
      };
    }
    const venv = await provideVenv(ctx, bp, layout, tools, python, true);
    if (!venv.ok) return venv;
    detail += `${venv.value} over Python ${python.version} (${python.path})`;
  } else if (bp.stack === 'jekyll' && bp.install) {
    // GEM_HOME, not BUNDLE_PATH: Bundler then still sees this machine's gems (its jekyll) and installs
    // only what they lack, into the project's own folder.
    const gems = gemsDir(layout, ctx.projectName);
    tools.env = { GEM_HOME: gems, BUNDLE_SILENCE_ROOT_WARNING: '1' };
    fs.mkdirSync(gems, { recursive: true });
    detail += `; its gems in ${path.relative(layout.home, gems)}`;
  } else if (bp.stack === 'go') {
    tools.env = {
      GOMODCACHE: path.join(layout.cachesDir, 'go', 'mod'),
      GOCACHE: path.join(layout.cachesDir, 'go', 'build'),
      GOPATH: path.join(layout.cachesDir, 'go', 'path'),
    };
    for (const dir of Object.values(tools.env)) fs.mkdirSync(dir, { recursive: true });
  }
  return { ok: true, value: tools, detail, stepStatus: 'cached' };
}
