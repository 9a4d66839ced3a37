import { rm } from 'node:fs/promises';
import type { Diagnosis, Repair, Settings, StepName } from '@forge/shared';
import type { Logger } from '../logging/logger.ts';
import type { HomeLayout } from '../home-layout.ts';
import type { RepairJournal } from '../capabilities/repair/journal.ts';
import type { PreviewRegistry } from '../capabilities/preview/preview-registry.ts';
import { loadSigningKey, type SigningKey } from '../capabilities/artifacts/signing.ts';
import type { Fleet } from './fleet/fleet.ts';
import type { Slots } from './fleet/slots.ts';
import type { BuildRun } from './build-run.ts';
import type { BuildRepo } from './build-repo.ts';
import {
  buildStep,
  detectStep,
  extractStep,
  failure,
  installStep,
  previewStep,
  runStep,
  testStep,
  toolchainStep,
  type BuildFailure,
  type Step,
  type StepEnv,
} from './steps/index.ts';
import { diagnoseStep } from './steps/diagnose.ts';
import { lintStep } from './steps/lint.ts';
import { repairStep } from './steps/repair.ts';

export interface EngineDeps {
  layout: HomeLayout;
  repo: BuildRepo;
  fleet: Fleet;
  previews: PreviewRegistry;
  logger: Logger;
  settings: () => Settings;
  /** Run commands inside bubblewrap when the machine has it. */
  sandbox: boolean;
  /** How many whole builds run at once; the rest wait `queued`. */
  lane: Slots;
  /** RepairBot's journal: repairs made during builds, with the files they changed saved for undo. */
  journal: RepairJournal;
  /** What builds this engine runs record as where they ran: "local", or a `forge worker`'s name. */
  workerName: string;
}

/** `forge fix`: the repair proposed for an earlier build, made first by the build that applies it. */
export interface FixRequest {
  diagnosis: Diagnosis;
  /**
   * Told once what was made; nothing, with why, when the repair no longer applies or would change
   * nothing (the build then stops without running the project's commands again).
   */
  onApplied(repairs: Repair[], nothingBecause?: string): void;
}

/** Where a build's source comes from: an upload to extract, or the project's files as they are. */
export type BuildSource =
  { kind: 'upload'; zipPath: string; fix?: FixRequest } | { kind: 'rebuild'; fix?: FixRequest };

/**
 * What every job of the engine works with: its deps, the step environment, the steps made once,
 * and this installation's provenance key (read, or made, on the first build that records an artifact).
 */
export interface EngineContext extends EngineDeps {
  env: StepEnv;
  steps: ReturnType<typeof makeSteps>;
  signingKey(): SigningKey;
}

function makeSteps(deps: EngineDeps) {
  const { layout, repo, logger } = deps;
  return {
    extract: extractStep({ layout, logger }),
    detect: detectStep({ layout, repo }),
    toolchain: toolchainStep({ layout, logger }),
    install: installStep({ layout }),
    build: buildStep({ layout }),
    test: testStep({ layout }),
    preview: previewStep({
      previews: deps.previews,
      repo,
      sandbox: deps.sandbox,
      home: (name) => layout.buildHome(name),
      caches: layout.cachesDir,
    }),
    diagnose: diagnoseStep({ layout, repo }),
    repair: repairStep({ layout, journal: deps.journal, sandbox: deps.sandbox }),
    lint: lintStep({ layout }),
  };
}

export function createEngineContext(deps: EngineDeps): EngineContext {
  let key: SigningKey | null = null;
  return {
    ...deps,
    env: {
      fleet: deps.fleet,
      repo: deps.repo,
      sandbox: deps.sandbox,
      settings: deps.settings,
      logger: deps.logger,
      home: (name) => deps.layout.buildHome(name),
      caches: deps.layout.cachesDir,
    },
    steps: makeSteps(deps),
    signingKey: () => (key ??= loadSigningKey(deps.layout.home)),
  };
}

/** A build ended early by one of its steps (or by a cancel): how it ends (engine/endings.ts). */
export class Stop {
  constructor(
    readonly failure: BuildFailure,
    readonly bot: string,
    /** The step that failed (ScanBot reads its output), and ScanBot's reading when it was made already. */
    readonly context: { step?: StepName; diagnosis?: Diagnosis | null } = {},
  ) {}
}

/** Run a step; a failure stops the build (thrown as Stop, caught once in pipeline.ts). */
export async function must<I, O>(ctx: EngineContext, run: BuildRun, step: Step<I, O>, input: I): Promise<O> {
  const result = await runStep(ctx.env, run, step, input);
  if (!result.ok) throw new Stop(result.failure, step.bot, { step: step.name });
  return result.value;
}

/** Stop unless the build is still wanted (a cancel between two steps). */
export function stillWanted(run: BuildRun): void {
  if (run.signal.aborted) {
    throw new Stop(
      failure('cancelled', 'CANCELLED', `The build was cancelled (${run.cancelReason}).`),
      'SYSTEM',
    );
  }
}

/** When the last build step started (ms), to tell what the build wrote; null when there was none. */
export function buildStartedAt(run: BuildRun): number | null {
  const step = run.snapshot().steps.findLast((s) => s.name === 'build');
  const at = step ? Date.parse(step.startedAt) : Number.NaN;
  return Number.isNaN(at) ? null : at;
}

/** The uploaded archive, once the build no longer needs it (extracted, or ended before). */
export const dropUpload = (source: BuildSource): Promise<void> =>
  source.kind === 'upload' ? rm(source.zipPath, { force: true }).catch(() => {}) : Promise.resolve();
