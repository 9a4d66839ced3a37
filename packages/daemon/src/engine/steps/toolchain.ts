import fs from 'node:fs/promises';
import path from 'node:path';
import {
  formatDuration,
  nodeEvidence,
  nodeSummary,
  type Blueprint,
  type NodeCandidate,
  type NodeRequirement,
  type Toolchain,
} from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import type { Logger } from '../../logging/logger.ts';
import { readNodeRequirement, toolCandidate, withToolNeed } from '../../capabilities/detect/node-version.ts';
import {
  parsePackageManagerField,
  pathWith,
  provideNode,
  provisionToolchain,
  ToolchainError,
  type PackageHash,
  type ProvidedNode,
  type ProvisionedToolchain,
} from '../../capabilities/toolchains/index.ts';
import { provideStackTool } from './stack-toolchain.ts';
import type { ProvisionedTools } from './provisioned-tools.ts';

export type { ProvisionedTool, ProvisionedTools } from './provisioned-tools.ts';
import { failure, type Step } from './types.ts';

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

/** The plan's Node candidates (a record from before they were kept: its one candidate, rebuilt). */
function statedCandidates(node: NodeRequirement | null): NodeCandidate[] {
  if (!node) return [];
  if (node.candidates.length > 0) return node.candidates;
  const isPackageJson = /(^|\/)package\.json$/.test(node.file);
  return [
    {
      source: isPackageJson ? 'engines.node' : path.posix.basename(node.file),
      file: node.file,
      value: node.wanted,
      role: isPackageJson ? 'constraint' : 'pin',
      range: null,
      used: false,
      note: null,
    },
  ];
}

/** How the plan asks for its Node, for messages: "engines.node >=24.16", with the whole range when more joined it. */
function askedFor(node: NodeRequirement): string {
  const decisive = node.candidates.find((c) => c.value === node.wanted && c.file === node.file);
  const whole =
    node.range !== null && decisive?.range !== node.range ? ` (with the others: ${node.range})` : '';
  return `${nodeEvidence(node)} ${node.wanted}${whole}`;
}

/**
 * The provided versions on a plan: the package manager's exact version, and the Node the build runs
 * on with where it came from. The record keeps them (like the rest of the plan) across a replan.
 */
export function withProvided(bp: Blueprint, tools: ProvisionedTools | null): Blueprint {
  if (!tools) return bp;
  return {
    ...bp,
    ...(bp.toolchain && tools.tool ? { toolchain: { ...bp.toolchain, version: tools.tool.version } } : {}),
    ...(tools.requirement ? { node: tools.requirement } : {}),
  };
}

/**
 * The plan with the provided toolchains first on PATH for every command, in the order given: Node's
 * bin before the package manager's, so its shims (#!/usr/bin/env node) run on that Node.
 */
export function withToolPath(
  bp: Blueprint,
  binDirs: readonly string[],
  toolEnv: Readonly<Record<string, string>> = {},
): Blueprint {
  if (binDirs.length === 0 && Object.keys(toolEnv).length === 0) return bp;
  return {
    ...bp,
    env: {
      ...bp.env,
      ...toolEnv,
      ...(binDirs.length > 0 ? { PATH: pathWith(binDirs, bp.env.PATH ?? process.env.PATH ?? '') } : {}),
    },
  };
}

/**
 * DependencyBot: make the Node and the package manager the plan asks for ready to run — this machine's
 * Node when it satisfies the plan's range, else one from FORGE_HOME/toolchains (offline) or fetched
 * from the npm registry once for every project (toolchains/node.ts); the package manager likewise,
 * run on that Node (its own engines.node joins the range: a Node that satisfies both, or
 * TOOLCHAIN_UNAVAILABLE naming both) — and record the exact versions in the build's plan. Never
 * installs anything globally.
 */
export function toolchainStep(deps: {
  layout: HomeLayout;
  logger: Logger;
}): Step<Blueprint, ProvisionedTools> {
  const { layout, logger } = deps;
  return {
    name: 'toolchain',
    bot: 'DependencyBot',
    label: (projectName, bp) =>
      bp.runtime
        ? `${bp.runtime.tool} for ${projectName}`
        : `${[bp.node ? 'node' : null, bp.toolchain?.tool].filter(Boolean).join(' and ') || 'toolchain'} for ${projectName}`,
    async run(ctx, bp) {
      if (bp.runtime) return provideStackTool(ctx, bp, layout);
      const machine = process.versions.node;
      const common = {
        toolchainsDir: layout.toolchainsDir,
        run: (command: Parameters<typeof ctx.run>[0]) => ctx.run(command),
        timeoutMs: bp.timeoutMs,
        signal: ctx.signal,
        log: (level: 'info' | 'warn', message: string) => ctx.log(level, message),
        machine,
      };
      const stated = statedCandidates(bp.node);
      // npm runs the project's scripts (an npm project, the store install included) unless the plan
      // provisions npm itself: the machine's npm must then run on the build's Node, or one that does.
      const npm = bp.packageManager === 'npm' && bp.toolchain?.tool !== 'npm';
      // Set by `settle` (called back from inside the package manager's provisioning).
      const state: { requirement: NodeRequirement | null; node: ProvidedNode | null } = {
        requirement: bp.node,
        node: null,
      };

      /** Settle the Node with the tool's real need in the range; the folders its commands need first on PATH. */
      const settle = async (tool: NodeCandidate | null): Promise<string[]> => {
        const reading = readNodeRequirement(withToolNeed(stated, tool, machine), machine);
        const requirement = reading?.requirement ?? null;
        state.requirement = requirement;
        if (reading?.conflict) {
          throw new ToolchainError(
            'TOOLCHAIN_UNAVAILABLE',
            `No Node can run this build: ${reading.conflict}.`,
          );
        }
        if (!requirement) return [];
        const node: ProvidedNode =
          requirement.range === null
            ? {
                version: machine,
                source: 'machine',
                package: null,
                rule: "this machine's: nothing readable to satisfy",
                path: [],
                npm: null,
                durationMs: 0,
              }
            : await provideNode({ range: requirement.range, npm, asked: askedFor(requirement) }, common);
        state.node = node;
        return node.path;
      };

      let tool: ProvisionedToolchain | null = null;
      try {
        if (bp.toolchain) {
          const toolchain = bp.toolchain;
          const hash = await declaredHash(layout.projectDir(ctx.projectName), toolchain);
          tool = await provisionToolchain(
            { tool: toolchain.tool, package: toolchain.package, request: toolchain.request, hash },
            {
              ...common,
              // bun is a native binary: whatever its package says, it does not run on Node.
              runtime: (engines, version) =>
                settle(
                  toolchain.tool === 'bun' || !engines
                    ? null
                    : toolCandidate({ ...toolchain, request: version }, engines),
                ),
            },
          );
        } else {
          await settle(null);
        }
      } catch (err) {
        if (!(err instanceof ToolchainError)) throw err;
        const status =
          err.code === 'STAGE_TIMEOUT' ? 'timed-out' : err.code === 'CANCELLED' ? 'cancelled' : 'failed';
        // The plan keeps what was read, so the failure's diagnosis can name both needs.
        const { requirement } = state;
        if (requirement) ctx.record({ blueprint: { ...(ctx.build().blueprint ?? bp), node: requirement } });
        return { ok: false, failure: failure(status, err.code, err.message) };
      }

      const { node: provided, requirement: settled } = state;
      const nodeRecord =
        settled && provided
          ? {
              ...settled,
              resolved: {
                version: provided.version,
                source: provided.source,
                package: provided.package,
                rule: provided.rule,
              },
            }
          : settled;
      const tools: ProvisionedTools = {
        path: [...(provided?.path ?? []), ...(tool ? [tool.binDir] : [])],
        tool: tool
          ? { binDir: tool.binDir, version: tool.version, package: tool.package, fetched: tool.fetched }
          : null,
        node: provided,
        requirement: nodeRecord,
      };
      ctx.record({ blueprint: withProvided(ctx.build().blueprint ?? bp, tools) });

      const parts: string[] = [];
      if (nodeRecord && provided) {
        const took = provided.source === 'fetched' ? ` in ${formatDuration(provided.durationMs)}` : '';
        const line = `node ${nodeSummary(nodeRecord).replace(/\)$/, `${took})`)}`;
        const npmNote = provided.npm
          ? `, with npm ${provided.npm.version}${provided.npm.fetched ? ' (fetched)' : ''}: this machine's npm does not run on Node ${provided.version}`
          : '';
        parts.push(`${line}${npmNote}`);
        ctx.log(
          provided.source === 'fetched' ? 'success' : 'info',
          `${line}${npmNote}. Rule: ${provided.rule}.`,
        );
        if (provided.source === 'fetched') {
          logger.info(
            {
              buildId: ctx.buildId,
              package: provided.package,
              version: provided.version,
              durationMs: provided.durationMs,
            },
            'fetched Node into toolchains/',
          );
        }
      }
      if (tool && bp.toolchain) {
        const name = `${bp.toolchain.tool} ${tool.version}`;
        const why = evidence(bp.toolchain);
        if (tool.fetched) {
          // Node was provided from inside the tool's provisioning (before its check ran on it).
          const took = formatDuration(Math.max(0, tool.durationMs - (provided?.durationMs ?? 0)));
          logger.info(
            {
              buildId: ctx.buildId,
              package: tool.package,
              version: tool.version,
              durationMs: tool.durationMs,
            },
            'fetched a package manager into toolchains/',
          );
          ctx.log('success', `Fetched ${name} into toolchains/ in ${took} (${why}).`);
          parts.push(`fetched ${name} in ${took} (${why})`);
        } else {
          ctx.log('info', `${name} from toolchains/ (${why}).`);
          parts.push(`${name} from toolchains/ (${why})`);
        }
      }
      const fetched = Boolean(tool?.fetched || provided?.source === 'fetched' || provided?.npm?.fetched);
      return {
        ok: true,
        value: tools,
        detail: parts.join('; ') || "this machine's Node",
        ...(fetched ? {} : { stepStatus: 'cached' as const }),
      };
    },
  };
}
