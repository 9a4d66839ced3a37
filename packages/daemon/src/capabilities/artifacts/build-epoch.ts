import type { Blueprint } from '@forge/shared';
import { sourceDateEpoch } from './record.ts';

/**
 * The plan with SOURCE_DATE_EPOCH set for the project's own commands: the date the artifact's ZIP
 * entries carry, so a tool that honours the reproducible-builds convention (a "built at" stamp,
 * a package's mtime, a Python wheel's dates) writes the same date every build. `epoch` is the
 * recorded value when a build is made again to verify it.
 */
export function withSourceDateEpoch(bp: Blueprint, epoch: number = sourceDateEpoch()): Blueprint {
  return { ...bp, env: { ...bp.env, SOURCE_DATE_EPOCH: String(epoch) } };
}
