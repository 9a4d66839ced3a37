/** Package managers and Node fetched from the npm registry into FORGE_HOME/toolchains/, shared and reused offline. */
export {
  provisionToolchain,
  type ProvisionedToolchain,
  type ProvisionOptions,
  type ToolchainRequest,
} from './provision.ts';
export { pathWith, type ToolCommand, type ToolRunner, type ToolRuntime } from './fetch-tool.ts';
export {
  isNodeUnavailable,
  nodePackage,
  pickNodeRelease,
  provideNode,
  type NodeNeed,
  type PickedRelease,
  type ProvidedNode,
  type ProvideNodeOptions,
} from './node.ts';
export { forecastToolNode, npmMajorFor } from './tool-node.ts';
export { ToolchainError } from './toolchain-error.ts';
export {
  findInstalled,
  installedReleases,
  toolchainDirName,
  toolEngines,
  type InstalledToolchain,
} from './installed.ts';
export { registryFor, DEFAULT_REGISTRY } from './registry.ts';
export { bundledNpm, bundledNpmVersion, type BundledNpm } from './bundled-npm.ts';
export {
  DEFAULT_BUN_MAJOR,
  DEFAULT_DENO_MAJOR,
  DEFAULT_PNPM_MAJOR,
  DEFAULT_YARN_BERRY_MAJOR,
  YARN_CLASSIC_MAJOR,
  TOOL_COMMANDS,
  type ToolName,
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
