import fs from 'node:fs/promises';
import path from 'node:path';
import { formatDuration, type Blueprint, type Toolchain } from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import type { Logger } from '../../logging/logger.ts';
import {
  parsePackageManagerField,
  provisionToolchain,
  ToolchainError,
  type PackageHash,
} from '../toolchains/index.ts';
import { failure, type Stage } from './types.ts';

/** The package manager a build's commands run with, ready on disk. */
export interface ProvisionedTool {
  /** Its commands (pnpm, pnpx…): first on PATH for install, build, test and start. */
  binDir: string;
  /** The exact version provisioned, e.g. "10.34.9". */
  version: string;
  package: string;
  /** False when it was already in FORGE_HOME/toolchains and reused without the network. */
  fetched: boolean;
}

/** Why the plan asks for this tool, as the log says it. */
function evidence(toolchain: Toolchain): string {
  switch (toolchain.source) {
    case 'packageManager':
      return `"packageManager" in ${toolchain.file ?? 'package.json'}`;
    case 'lockfile':
      return toolchain.file ?? 'lockfile';
    case 'default':
      return "Forge's default";
  }
}

/** Corepack's tarball hash from the project's `packageManager` field, to check the fetched tool against. */
async function declaredHash(projectDir: string, toolchain: Toolchain): Promise<PackageHash | null> {
  if (toolchain.source !== 'packageManager' || !toolchain.file) return null;
  try {
    const manifest = JSON.parse(await fs.readFile(path.join(projectDir, toolchain.file), 'utf8')) as {
      packageManager?: unknown;
    };
    if (typeof manifest.packageManager !== 'string') return null;
    return parsePackageManagerField(manifest.packageManager)?.hash ?? null;
  } catch {
    return null;
  }
}

/**
 * DependencyBot: make the package manager the plan names ready to run — reused from FORGE_HOME/toolchains
 * (offline) or fetched from the npm registry once for every project — and record its exact version in
 * the build's plan. Never installs anything globally.
 */
export function toolchainStage(deps: {
  layout: HomeLayout;
  logger: Logger;
}): Stage<Blueprint, ProvisionedTool> {
  const { layout, logger } = deps;
  return {
    step: 'toolchain',
    bot: 'DependencyBot',
    label: (projectName, bp) => `${bp.toolchain?.tool ?? 'package manager'} for ${projectName}`,
    async run(ctx, bp) {
      const toolchain = bp.toolchain!;
      const hash = await declaredHash(layout.projectDir(ctx.projectName), toolchain);
      let got;
      try {
        got = await provisionToolchain(
          { tool: toolchain.tool, package: toolchain.package, request: toolchain.request, hash },
          {
            toolchainsDir: layout.toolchainsDir,
            run: (command) => ctx.run(command),
            timeoutMs: bp.timeoutMs,
            signal: ctx.signal,
            log: (level, message) => ctx.log(level, message),
          },
        );
      } catch (err) {
        if (!(err instanceof ToolchainError)) throw err;
        const status =
          err.code === 'STAGE_TIMEOUT' ? 'timed-out' : err.code === 'CANCELLED' ? 'cancelled' : 'failed';
        return { ok: false, failure: failure(status, err.code, err.message) };
      }

      const current = ctx.build().blueprint ?? bp;
      ctx.record({ blueprint: { ...current, toolchain: { ...toolchain, version: got.version } } });
      const name = `${toolchain.tool} ${got.version}`;
      const why = evidence(toolchain);
      if (got.fetched) {
        const took = formatDuration(got.durationMs);
        logger.info(
          { buildId: ctx.buildId, package: got.package, version: got.version, durationMs: got.durationMs },
          'fetched a package manager into toolchains/',
        );
        ctx.log('success', `Fetched ${name} into toolchains/ in ${took} (${why}).`);
        return {
          ok: true,
          value: { binDir: got.binDir, version: got.version, package: got.package, fetched: true },
          detail: `fetched ${name} in ${took} (${why})`,
        };
      }
      ctx.log('info', `${name} from toolchains/ (${why}).`);
      return {
        ok: true,
        value: { binDir: got.binDir, version: got.version, package: got.package, fetched: false },
        detail: `${name} from toolchains/ (${why})`,
        stepStatus: 'cached',
      };
    },
  };
}
