export * from './types.ts';
export { runStage, type StageEnv } from './run-stage.ts';
export { extractStage, type ExtractInput } from './extract.ts';
export { detectStage } from './detect.ts';
export { cacheStage, type CacheInput } from './cache.ts';
export {
  toolchainStage,
  withProvided,
  withToolPath,
  type ProvisionedTool,
  type ProvisionedTools,
} from './toolchain.ts';
export { installStage } from './install.ts';
export { buildStage } from './build.ts';
export { testStage, TEST_TIMEOUT_MS, TEST_TAIL_LINES } from './test.ts';
export { checkStage } from './check.ts';
export { optimizeStage, type OptimizeInput } from './optimize.ts';
export { previewStage, type PreviewInput } from './preview.ts';
export { lintStage, LINT_TIMEOUT_MS } from './lint.ts';
export { diagnoseStage, type DiagnoseStageInput } from './diagnose.ts';
export { repairStage, type RepairStageInput, type RepairDone } from './repair.ts';
