/** Package managers fetched from the npm registry into FORGE_HOME/toolchains/, shared and reused offline. */
export {
  provisionToolchain,
  type ProvisionedToolchain,
  type ProvisionOptions,
  type ToolchainRequest,
} from './provision.ts';
export type { ToolCommand, ToolRunner } from './fetch-tool.ts';
export { ToolchainError } from './toolchain-error.ts';
export { findInstalled, toolchainDirName, type InstalledToolchain } from './installed.ts';
export { registryFor, DEFAULT_REGISTRY } from './registry.ts';
export { bundledNpmVersion } from './bundled-npm.ts';
export {
  DEFAULT_BUN_MAJOR,
  DEFAULT_PNPM_MAJOR,
  DEFAULT_YARN_BERRY_MAJOR,
  YARN_CLASSIC_MAJOR,
  TOOL_COMMANDS,
  isValidRequest,
  parsePackageManagerField,
  pnpmMajorForLockfile,
  toolPackage,
  yarnMajorForLockfile,
  type MajorPick,
  type PackageHash,
  type PackageManagerField,
} from './tools.ts';
export { isStoreInstall, storeInstallArgv, usesStore } from './store.ts';
