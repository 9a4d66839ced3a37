import type { Blueprint, Diagnosis, ErrorCode, StepName } from '@forge/shared';
import type { BuildRun } from './build-run.ts';
import type { EngineContext } from './context.ts';
import { runStep, type BuildFailure } from './steps/index.ts';

/** Build outcomes ScanBot diagnoses: a project's own commands or plan failing, not refusals or cancels. */
const DIAGNOSED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'INSTALL_FAILED',
  'BUILD_FAILED',
  'OUTPUT_MISSING',
  'OUTPUT_NO_INDEX',
  'PREVIEW_FAILED',
  'STAGE_TIMEOUT',
  'TOOLCHAIN_UNAVAILABLE',
  'PROJECT_NOT_BUILDABLE',
  'BLUEPRINT_INVALID_PACKAGE_JSON',
]);

/** Failures of the project's own commands that a Node the project does not accept would explain. */
const NODE_SENSITIVE = new Set(['INSTALL_FAILED', 'BUILD_FAILED', 'PREVIEW_FAILED', 'STAGE_TIMEOUT']);

/**
 * "Probably the cause": the plan said up front that this machine's Node is not what the project asks
 * for, and the build ran on it anyway. Never when DependencyBot provided a Node in the range.
 */
export function probableCauseOf(bp: Blueprint | null | undefined, code: string): string | null {
  const node = bp?.node;
  if (!node || node.satisfied !== false || node.resolved || !NODE_SENSITIVE.has(code)) return null;
  return (
    `This was probably caused by the Node version: the project asks for Node ${node.wanted} (${node.file}) ` +
    `and this machine runs Node ${node.current}.`
  );
}

/** A step that failed: its failure, its bot, and which step (ScanBot reads its output). */
export interface FailedStep {
  failure: BuildFailure;
  bot: string;
  step: StepName | null;
}

/** ScanBot's reading of a failure, or null when it could not make one (its step says why). */
export async function diagnoseFailure(
  ctx: EngineContext,
  run: BuildRun,
  failed: FailedStep,
  bp: Blueprint | null,
): Promise<Diagnosis | null> {
  const { failure: f } = failed;
  if (f.status === 'cancelled' || !DIAGNOSED.has(f.code) || run.signal.aborted) return null;
  const blueprint = bp ?? run.snapshot().blueprint;
  const probableCause = probableCauseOf(blueprint, f.code);
  const result = await runStep(ctx.env, run, ctx.steps.diagnose, {
    step: failed.step,
    bot: failed.bot,
    status: f.status,
    error: {
      code: f.code,
      message: f.message,
      ...(f.evidence ?? {}),
      ...(probableCause ? { probableCause } : {}),
      ...(f.hint ? { hint: f.hint } : {}),
    },
    blueprint,
  });
  return result.ok ? result.value : null;
}
