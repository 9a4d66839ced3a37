import type { Diagnosis } from '@forge/shared';
import { constraintRange } from '../detect/node-range.ts';
import { unifiedDiff } from './diff.ts';
import { addMember } from './json-edit.ts';
import { appManifest, objectField } from './project.ts';
import type { PlanResult, RepairTarget } from './types.ts';

/**
 * PIN_NODE_VERSION: a dependency needs a newer Node (its engines.node, as the package manager printed
 * it) and the project states none. Its range is declared as engines.node in the app's package.json —
 * where BlueprintBot reads a project's Node — so the next plan asks DependencyBot for a Node in it.
 * Declined when the plan already reads a Node from anywhere (changing what the author stated is
 * theirs to decide) or the range is not one Forge can read.
 */
export async function planNodeVersion(diagnosis: Diagnosis, target: RepairTarget): Promise<PlanResult> {
  const [pkg, wanted] = diagnosis.subjects ?? [];
  if (!pkg || !wanted || constraintRange(wanted) === null) {
    return { plan: null, reason: 'the diagnosis does not name the package and a Node range Forge can read' };
  }
  const node = target.blueprint.node;
  if (node) {
    return {
      plan: null,
      reason: `the project already asks for Node ${node.wanted} in ${node.file}: which Node it needs is its author's to decide`,
    };
  }
  const manifest = await appManifest(target.projectDir, target.blueprint);
  if (!manifest) return { plan: null, reason: "the app's package.json is missing or not valid JSON" };
  const engines = objectField(manifest, 'engines');
  if (engines?.node !== undefined) {
    return { plan: null, reason: `${manifest.file} already has engines.node` };
  }
  const text = engines
    ? addMember(manifest.text, ['engines'], 'node', wanted)
    : addMember(manifest.text, [], 'engines', { node: wanted }, { after: 'devDependencies' });
  return {
    plan: {
      code: 'PIN_NODE_VERSION',
      summary: `RepairBot declared engines.node "${wanted}" in ${manifest.file} (what ${pkg} asks for), so Forge provides that Node`,
      files: [manifest.file],
      diff: unifiedDiff([{ file: manifest.file, before: manifest.text, after: text }]),
      writes: [{ file: manifest.file, content: text }],
      backup: [],
    },
  };
}
