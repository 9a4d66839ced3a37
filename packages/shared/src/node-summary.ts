import type { NodeRequirement } from './domain/blueprint.ts';

/** The field or file that decided the plan's Node, as it is named ("engines.node", ".nvmrc", "pnpm 11"). */
export function nodeEvidence(node: NodeRequirement): string {
  const decisive = node.candidates.find((c) => c.value === node.wanted && c.file === node.file);
  if (decisive) return decisive.source;
  return /(^|\/)package\.json$/.test(node.file) ? 'engines.node' : node.file.split('/').at(-1)!;
}

/**
 * The plan's Node in one phrase, as `forge plan` and the toolchain step say it: once provided,
 * "24.22.3 (engines.node >=24.16, fetched)" or "20.20.2 (this machine's, satisfies ^20)"; before,
 * what is asked and whether this machine's Node serves.
 */
export function nodeSummary(node: NodeRequirement): string {
  const why = `${nodeEvidence(node)} ${node.wanted}`;
  const { resolved } = node;
  if (resolved) {
    switch (resolved.source) {
      case 'machine':
        return node.range === null
          ? `${resolved.version} (this machine's; ${why} is not a version Forge can read)`
          : `${resolved.version} (this machine's, satisfies ${node.wanted})`;
      case 'toolchains':
        return `${resolved.version} (${why}, from toolchains/)`;
      case 'fetched':
        return `${resolved.version} (${why}, fetched)`;
    }
  }
  if (node.satisfied === null)
    return `${why} (not a version Forge can read: this machine's ${node.current} is used)`;
  return node.satisfied
    ? `${why} (this machine's ${node.current} satisfies it)`
    : `${why} (this machine runs ${node.current}: Forge provides one that satisfies it)`;
}
