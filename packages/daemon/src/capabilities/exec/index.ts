/** The command runner every build step uses (see run-command.ts). */
export { runCommand } from './run-command.ts';
export type { CancelReason, RunCommandOptions, RunOutcome, RunResult } from './run-command.ts';
export type { OutputLine, OutputStream, OutputTotals } from './output-limiter.ts';
export { scrubEnv, isInheritable, FORCED_BUILD_ENV } from './scrub-env.ts';
export { sandboxAvailable, type SandboxOptions } from './sandbox.ts';
export { forgeCaches, homeEnv } from './build-home.ts';
export { killProcessGroup } from './process-group.ts';
export { LineBatcher, type LineBatcherOptions } from './line-batcher.ts';
export * from './limits.ts';
