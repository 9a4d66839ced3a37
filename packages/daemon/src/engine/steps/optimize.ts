import { formatBytes, plural, type BundleReport } from '@forge/shared';
import { bundleReport } from '../../capabilities/checks/bundle-report.ts';
import type { Step } from './types.ts';

export interface OptimizeInput {
  outputDir: string;
  /** Leave these out of the report (a static site's dotfiles). */
  skip?: (rel: string) => boolean;
}

/** OptimizationBot: the bundle report (sizes, gzip sizes, files over the threshold). Never failing the build. */
export const optimizeStep: Step<OptimizeInput, BundleReport> = {
  name: 'optimize',
  bot: 'OptimizationBot',
  label: (projectName) => `size ${projectName}`,
  async run(ctx, { outputDir, skip }) {
    const report = await bundleReport(outputDir, skip ? { skip } : {});
    ctx.record({ bundle: report });
    const flagged = report.files.filter((f) => f.flagged);
    const over = flagged.length ? `; ${flagged.length} over ${formatBytes(report.thresholdBytes)}` : '';
    const detail = `${plural(report.files.length, 'file')}, ${formatBytes(report.totalBytes)} (${formatBytes(report.totalGzipBytes)} gzip)${over}`;
    ctx.log(flagged.length ? 'warn' : 'info', `Bundle: ${detail}`);
    return { ok: true, value: report, detail };
  },
};
