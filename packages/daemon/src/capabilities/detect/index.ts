/** BlueprintBot: how to install, build, test and serve an extracted project, with the evidence. */
export { detectBlueprint, DEFAULT_STAGE_TIMEOUT_MS, type DetectOptions } from './detect-blueprint.ts';
export { BlueprintError, type BlueprintErrorCode, type BlueprintIssue } from './blueprint-error.ts';
export { splitCommand } from './command-line.ts';
export { ForgeProjectConfig, FORGE_CONFIG_FILES, EXECUTABLE_CONFIG_FILES } from './forge-config.ts';
export { MAX_READ_BYTES } from './project-files.ts';
