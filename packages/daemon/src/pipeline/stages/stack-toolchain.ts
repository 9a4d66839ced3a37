import fs from 'node:fs';
import path from 'node:path';
import { formatDuration, type Blueprint } from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import { findStackTool } from '../toolchains/stack-tool.ts';
import type { ProvisionedTools } from './toolchain.ts';
import { failure, type StageContext, type StageResult } from './types.ts';

/** A project's Python virtual environment: FORGE_HOME/venvs/<project>, kept between its builds. */
export const venvDir = (layout: HomeLayout, projectName: string): string =>
  path.join(layout.home, 'venvs', projectName);

/** The Python version a virtual environment was made with (its pyvenv.cfg), or null when there is none. */
function venvVersion(dir: string): string | null {
  try {
    const cfg = fs.readFileSync(path.join(dir, 'pyvenv.cfg'), 'utf8');
    return fs.existsSync(path.join(dir, 'bin', 'python'))
      ? (/^version(?:_info)?\s*=\s*(\S+)/m.exec(cfg)?.[1] ?? null)
      : null;
  } catch {
    return null;
  }
}

/**
 * DependencyBot for a stack other than JavaScript: this machine's tool when it satisfies the version the
 * project asks for, else TOOLCHAIN_UNAVAILABLE naming the stack, its evidence, the tool and version and
 * the command that installs it. Python gets its virtual environment (made once per project and Python
 * version) first on PATH; Go its module and build caches in FORGE_HOME/caches.
 */
export async function provideStackTool(
  ctx: StageContext,
  bp: Blueprint,
  layout: HomeLayout,
): Promise<StageResult<ProvisionedTools>> {
  const runtime = bp.runtime!;
  const found = await findStackTool(bp, process.env.PATH ?? '', ctx.signal);
  if ('message' in found) {
    return {
      ok: false,
      failure: { ...failure('failed', 'TOOLCHAIN_UNAVAILABLE', found.message), hint: found.hint },
    };
  }
  ctx.record({
    blueprint: { ...(ctx.build().blueprint ?? bp), runtime: { ...runtime, found: found.version } },
  });
  const tools: ProvisionedTools = { path: [], tool: null, node: null, requirement: null, env: {} };
  const why = runtime.minimum ? ` (satisfies ${runtime.minimum} or newer, ${runtime.versionFile})` : '';
  let detail = `${runtime.tool} ${found.version} of this machine${why}`;
  ctx.log('info', `${runtime.tool} ${found.version}: this machine's, ${found.path}${why}.`);

  // A plan Forge cannot run only needed to know the tool is there: nothing to make for it.
  if (bp.kind === 'unknown') return { ok: true, value: tools, detail, stepStatus: 'cached' };
  if (bp.stack === 'python') {
    const venv = venvDir(layout, ctx.projectName);
    const bin = path.join(venv, 'bin');
    tools.path = [bin];
    tools.env = { VIRTUAL_ENV: venv, PIP_CACHE_DIR: path.join(layout.cachesDir, 'pip') };
    fs.mkdirSync(tools.env.PIP_CACHE_DIR!, { recursive: true });
    if (venvVersion(venv) === found.version) {
      ctx.log(
        'info',
        `Virtual environment reused: ${path.relative(layout.home, venv)} (Python ${found.version}).`,
      );
      detail += '; its virtual environment reused';
    } else {
      fs.rmSync(venv, { recursive: true, force: true });
      fs.mkdirSync(venv, { recursive: true });
      const result = await ctx.run({
        argv: [found.path, '-m', 'venv', venv],
        cwd: path.join(layout.projectDir(ctx.projectName), bp.appDir),
        env: bp.env,
        timeoutMs: bp.timeoutMs,
        writable: [venv],
      });
      if (result.outcome !== 'succeeded') {
        const status =
          result.outcome === 'cancelled'
            ? 'cancelled'
            : result.outcome === 'timed-out'
              ? 'timed-out'
              : 'failed';
        return {
          ok: false,
          failure: {
            ...failure(
              status,
              status === 'cancelled' ? 'CANCELLED' : 'TOOLCHAIN_UNAVAILABLE',
              `python3 -m venv could not make the project's virtual environment (${result.error ?? `exit code ${result.exitCode}`}). Install it with: ${runtime.installCommand}`,
            ),
            hint: `Python's venv module comes with ${runtime.installCommand.replace(/^.*install (-y )?/, '')}: install it, then build again.`,
          },
        };
      }
      ctx.log(
        'success',
        `Virtual environment made in ${formatDuration(result.durationMs)}: ${path.relative(layout.home, venv)}.`,
      );
      detail += '; a new virtual environment';
    }
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
