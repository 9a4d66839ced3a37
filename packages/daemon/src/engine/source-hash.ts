import crypto from 'node:crypto';
import type { Blueprint } from '@forge/shared';
import { isInstalledNodeModules } from '../capabilities/extract/install-trees.ts';
import { withSourceDateEpoch } from '../capabilities/artifacts/build-epoch.ts';
import { hashTree, type WrittenTree } from '../fs/tree-hash.ts';

/**
 * Source hash for CacheBot: the uploaded tree (not its installs or outputs) plus the plan. `written`
 * is ExtractBot's digest of the tree it just wrote: used instead of reading the tree back when the
 * skip below leaves out none of it.
 */
export async function sourceHash(
  projectDir: string,
  blueprint: Blueprint,
  written?: WrittenTree | null,
): Promise<string> {
  const out =
    blueprint.kind === 'static-build' && blueprint.outputDir ? blueprint.outputDir.replace(/\/+$/, '') : null;
  // Installs are left out, a committed fixture's node_modules is not (capabilities/extract/install-trees.ts).
  const installs = [blueprint.installDir, blueprint.appDir];
  const tree = await hashTree(
    projectDir,
    (rel) => isInstalledNodeModules(projectDir, rel, installs) || rel === '.git' || rel === out,
    written,
  );
  // The plan as its commands get it: the recorded plan (made before SOURCE_DATE_EPOCH is added) and
  // the running one hash the same, so CacheBot's checks agree with the build's own.
  const { decisions: _decisions, ...plan } = withSourceDateEpoch(blueprint);
  return crypto.createHash('sha256').update(tree).update(JSON.stringify(plan)).digest('hex');
}
