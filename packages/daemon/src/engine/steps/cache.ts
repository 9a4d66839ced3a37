import type { Build } from '@forge/shared';
import type { Step } from './types.ts';

export interface CacheInput {
  /** The earlier build whose output has the same source hash and plan. */
  earlier: Build;
}

/**
 * CacheBot: the source and plan are the same as an earlier successful build's, so its stored output
 * is this build's output; its reports carry over. Recorded as the build step, status `cached`.
 */
export const cacheStep: Step<CacheInput, void> = {
  name: 'build',
  bot: 'CacheBot',
  label: (projectName) => `cache ${projectName}`,
  async run(ctx, { earlier }) {
    ctx.record({ cacheHit: true, test: earlier.test, uiCheck: earlier.uiCheck, bundle: earlier.bundle });
    ctx.log('success', `Cache hit: same source and plan as build ${earlier.id}; reusing its output.`);
    return {
      ok: true,
      value: undefined,
      detail: `same source and plan as build ${earlier.id}`,
      stepStatus: 'cached',
    };
  },
};
