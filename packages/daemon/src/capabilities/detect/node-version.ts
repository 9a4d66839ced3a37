import type { NodeCandidate, NodeRequirement, Toolchain } from '@forge/shared';
import semver from 'semver';
import { forecastToolNode } from '../toolchains/tool-node.ts';
import type { DecisionLog } from './decisions.ts';
import { candidateLabel, combineNode, constraintRange, inRange } from './node-range.ts';
import { readNodeCandidates } from './node-sources.ts';
import type { ProjectFiles } from './project-files.ts';

/**
 * The package manager's own need, as a candidate: its `engines` once DependencyBot has it, else the
 * forecast for its major (the plan's). Null when it needs no particular Node.
 */
export function toolCandidate(
  toolchain: Toolchain | null | undefined,
  engines?: string,
): NodeCandidate | null {
  if (!toolchain) return null;
  const major = Number(toolchain.request.split('.')[0]);
  const value = engines ?? (Number.isFinite(major) ? forecastToolNode(toolchain.tool, major) : null);
  const range = value ? constraintRange(value) : null;
  if (!value || !range) return null;
  return {
    source: `${toolchain.tool} ${toolchain.request}`,
    file: toolchain.file ?? 'package.json',
    value,
    role: 'tool',
    range,
    used: false,
    note: null,
  };
}

/** One candidate as the rule lists it: "engines.node in package.json says >=22", with its note. */
const listed = (c: NodeCandidate): string =>
  `${candidateLabel(c)} ${c.role === 'tool' ? 'needs Node' : 'says'} ${c.value}` +
  (c.note ? ` (${c.note}${c.used ? '' : ', not used'})` : c.used ? '' : ' (not used)');

/** A requirement with the rule that explains it, and a conflict no Node can resolve. */
export interface NodeReading {
  requirement: NodeRequirement;
  rule: string;
  /** Set when the package manager's need and the project's constraints exclude each other. */
  conflict: string | null;
}

/**
 * Candidates (as read, in reading order) combined by detect/node-range.ts into the requirement, against
 * this machine's Node `current`; null when there are none. DependencyBot calls it again with the tool's
 * real engines.node in place of the forecast.
 */
export function readNodeRequirement(read: readonly NodeCandidate[], current: string): NodeReading | null {
  if (read.length === 0) return null;
  const { candidates, range, decisive, conflict } = combineNode(read);
  const first = decisive!;
  const satisfied = range === null ? null : semver.satisfies(current, range, { includePrerelease: true });
  const where = candidateLabel(first);
  const asks = first.role === 'tool' ? 'needs' : 'asks for';
  const others = candidates.filter((c) => c !== first).map(listed);
  const also = others.length > 0 ? `; ${others.join(', ')}` : '';
  const resolves = range !== null && range !== first.range ? ` (together: ${range})` : '';
  let rule: string;
  if (conflict) {
    rule = `No Node can serve: ${conflict}${also}`;
  } else if (satisfied === null) {
    rule =
      `${where} says "${first.value}", which is not a version range Forge can read${first.note ? ` (${first.note})` : ''}; ` +
      `this machine's Node ${current} is used${also}`;
  } else if (satisfied) {
    rule = `${where} ${asks} Node ${first.value}${resolves}: this machine's Node ${current} satisfies it${also}`;
  } else {
    rule =
      `Not satisfied by this machine's Node ${current}: ${where} ${asks} Node ${first.value}${resolves}; ` +
      `DependencyBot provides a Node that satisfies it (from toolchains/, else the npm registry)${also}`;
  }
  return {
    requirement: {
      wanted: first.value,
      file: first.file,
      current,
      satisfied,
      candidates,
      range,
      resolved: null,
    },
    rule,
    conflict,
  };
}

/**
 * The candidates with `tool` as the package manager's need (replacing any earlier one), kept only next
 * to what the project says or when this machine's Node does not meet it (otherwise it adds nothing).
 */
export function withToolNeed(
  stated: readonly NodeCandidate[],
  tool: NodeCandidate | null,
  current: string,
): NodeCandidate[] {
  const project = stated.filter((c) => c.role !== 'tool');
  if (!tool || (project.length === 0 && inRange(current, tool.range!))) return project;
  return [...project, tool];
}

/**
 * The Node the project asks for, from every place it says so (detect/node-sources.ts: engines.node,
 * devEngines.runtime, volta.node, .nvmrc, .node-version, .tool-versions, mise; the app's folder first,
 * then the others of `folders`, the repository root) and the package manager's own need, combined by
 * detect/node-range.ts, against this machine's Node. Records a `node` decision naming every candidate,
 * the one that decides and why; DependencyBot provides a Node in the range when this one is not.
 */
export async function detectNodeRequirement(
  files: ProjectFiles,
  log: DecisionLog,
  options: { folders?: readonly string[]; current?: string; toolchain?: Toolchain | null } = {},
): Promise<NodeRequirement | null> {
  const current = options.current ?? process.versions.node;
  const stated = await readNodeCandidates(files, options.folders ?? ['.']);
  const reading = readNodeRequirement(
    withToolNeed(stated, toolCandidate(options.toolchain), current),
    current,
  );
  if (!reading) return null;
  const { requirement } = reading;
  log.add('node', `${requirement.wanted} (this machine: ${current})`, requirement.file, reading.rule);
  return requirement;
}
