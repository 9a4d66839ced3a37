import type { NodeRequirement } from '@forge/shared';
import type { ProvidedNode } from '../../capabilities/toolchains/index.ts';

/** The package manager a build's commands run with, ready on disk. */
export interface ProvisionedTool {
  /** Its commands (pnpm, pnpx…): on PATH for install, build, test and start, after Node's. */
  binDir: string;
  /** The exact version provisioned, e.g. "10.34.9". */
  version: string;
  package: string;
  /** False when it was already in FORGE_HOME/toolchains and reused without the network. */
  fetched: boolean;
}

/** What DependencyBot made ready: the folders every later command finds first on PATH, in order. */
export interface ProvisionedTools {
  /** Node's bin (and an npm that runs on it) first, then the package manager's: empty when nothing was provided. */
  path: string[];
  tool: ProvisionedTool | null;
  /** The Node the build runs on; null when the project states none and this machine's serves. */
  node: ProvidedNode | null;
  /** The plan's Node with the tool's real need and the Node provided (`resolved`); null when none was stated. */
  requirement: NodeRequirement | null;
  /** Environment the provided tools need (a Python virtual environment, Go's caches in FORGE_HOME). */
  env?: Record<string, string>;
}
