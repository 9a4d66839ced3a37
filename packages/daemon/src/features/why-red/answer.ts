import { buildDiffLines, type Build } from '@forge/shared';
import { ForgeError } from '../../http/forge-error.ts';
import { compareWithLastGreen, type CompareDeps } from './compare.ts';

export interface WhatChanged {
  /** Whether the text holds a comparison (false: why there is none). */
  compared: boolean;
  text: string;
  /** The build compared, when there was one to compare. */
  buildId: string | null;
}

/**
 * "What changed since it last worked?" in words, for the brain, the Forge chat and the web's Forge
 * assistant: the build asked (else the project's newest) compared with the last green build, as
 * `forge diff` prints it without the unified diffs. Not a failed build, never green, or its source
 * not kept: says so, with the build ids.
 */
export async function whatChanged(
  deps: CompareDeps,
  project: string,
  build: Build | null = null,
): Promise<WhatChanged> {
  const target = build ?? deps.repo.list({ project, limit: 1 })[0] ?? null;
  if (!target) {
    return {
      compared: false,
      buildId: null,
      text: `${project} has not been built yet: there is nothing to compare.`,
    };
  }
  if (target.status === 'queued' || target.status === 'running') {
    return {
      compared: false,
      buildId: target.id,
      text: `Build ${target.id} of ${project} has not finished yet: ask again when it has (a failed build is compared with the last green one).`,
    };
  }
  if (target.status === 'succeeded') {
    return {
      compared: false,
      buildId: target.id,
      text: `${build ? `Build ${target.id} of ${project}` : `The last build of ${project}, ${target.id},`} succeeded: nothing is red. A failed build is compared with the last green one (forge diff <build>).`,
    };
  }
  try {
    const diff = await compareWithLastGreen(deps, target.id);
    return { compared: true, buildId: target.id, text: buildDiffLines(diff).join('\n') };
  } catch (err) {
    if (err instanceof ForgeError) return { compared: false, buildId: target.id, text: err.message };
    throw err;
  }
}
