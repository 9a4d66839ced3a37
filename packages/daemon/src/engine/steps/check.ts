import type { UiCheck } from '@forge/shared';
import { checkOutput } from '../../capabilities/checks/ui-check.ts';
import type { Step } from './types.ts';

/** UiBot: the output has an index.html and every local asset it references. Recorded, never failing the build. */
export const checkStep: Step<{ outputDir: string }, UiCheck> = {
  name: 'check',
  bot: 'UiBot',
  label: (projectName) => `check ${projectName}`,
  async run(ctx, { outputDir }) {
    const report = await checkOutput(outputDir);
    ctx.record({ uiCheck: report });
    const detail = report.ok
      ? 'index.html and every local asset present'
      : !report.hasIndexHtml
        ? 'no index.html in the output'
        : `${report.missingAssets.length} missing asset(s): ${report.missingAssets.slice(0, 5).join(', ')}`;
    ctx.log(report.ok ? 'success' : 'warn', `Output check: ${detail}`);
    return { ok: true, value: report, detail, stepStatus: report.ok ? 'succeeded' : 'failed' };
  },
};
