export * from './types.ts';
export { runStep, type StepEnv } from './run-step.ts';
export { extractStep, type ExtractInput } from './extract.ts';
export { detectStep } from './detect.ts';
export { cacheStep, type CacheInput } from './cache.ts';
export {
  toolchainStep,
  withProvided,
  withToolPath,
  type ProvisionedTool,
  type ProvisionedTools,
} from './toolchain.ts';
export { installStep } from './install.ts';
export { buildStep } from './build.ts';
export { testStep, TEST_TIMEOUT_MS, TEST_TAIL_LINES } from './test.ts';
export { checkStep } from './check.ts';
export { optimizeStep, type OptimizeInput } from './optimize.ts';
export { previewStep, type PreviewInput } from './preview.ts';
export { lintStep, LINT_TIMEOUT_MS } from './lint.ts';
export { diagnoseStep, type DiagnoseStepInput } from './diagnose.ts';
export { repairStep, type RepairStepInput, type RepairDone } from './repair.ts';
