import type { Build } from '@forge/shared';
import { whatChanged } from '../why-red/answer.ts';
import { known, unknown, type EngineAnswer } from './answers.ts';
import type { FactServices } from './facts.ts';

/**
 * "What changed since it last worked?": the build asked (else the project's newest) compared with
 * the project's last green build, from the same comparison as `forge diff`. No comparison to make
 * (never green, not red, source not kept) is an "I don't know" that says why.
 */
export async function changesAnswer(
  services: FactServices,
  project: string,
  build: Build | null,
): Promise<EngineAnswer> {
  const answer = await whatChanged(services, project, build);
  if (answer.compared) return known('changes', answer.text, project);
  return unknown(
    `I don't know what changed: ${answer.text}`,
    answer.buildId ? `a failed build of ${project} after a green one` : `a build of ${project} first`,
    project,
  );
}
