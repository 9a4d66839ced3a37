import fs from 'node:fs';
import path from 'node:path';
import { formatBytes, MAX_EXTRACT_REPORT_ITEMS, plural, type ExtractReport } from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import type { Logger } from '../../logging/logger.ts';
import { discardDir } from '../../fs/moves.ts';
import { extractArchive, type ExtractResult } from '../../capabilities/extract/index.ts';
import type { Step } from './types.ts';

export interface ExtractInput {
  /** The uploaded archive, on disk. */
  zipPath: string;
}

/**
 * ExtractBot: unpack the upload into the project folder, replacing the old source atomically. The
 * installed node_modules is moved aside first so DependencyBot can reuse it; a refused archive puts
 * it back and leaves the project exactly as it was.
 */
export function extractStep(deps: { layout: HomeLayout; logger: Logger }): Step<ExtractInput, ExtractResult> {
  const { layout, logger } = deps;

  /** Move installed dependencies aside; returns how to put them back. */
  function keepDependencies(projectName: string): () => void {
    const nodeModules = path.join(layout.projectDir(projectName), 'node_modules');
    if (!fs.existsSync(nodeModules)) return () => {};
    const kept = path.join(layout.depsDir(projectName), 'node_modules');
    discardDir(kept, layout.tmpDir);
    fs.mkdirSync(path.dirname(kept), { recursive: true });
    fs.renameSync(nodeModules, kept);
    return () => {
      if (fs.existsSync(layout.projectDir(projectName)) && !fs.existsSync(nodeModules))
        fs.renameSync(kept, nodeModules);
    };
  }

  return {
    name: 'extract',
    bot: 'ExtractBot',
    label: (projectName) => `extract ${projectName}`,
    async run(ctx, { zipPath }) {
      const restore = keepDependencies(ctx.projectName);
      let result: ExtractResult;
      try {
        result = await extractArchive(zipPath, {
          targetDir: layout.projectDir(ctx.projectName),
          workDir: layout.tmpDir,
          signal: ctx.signal,
          logger,
          // CacheBot's source hash then comes from the worker's digest instead of reading the tree back.
          hash: true,
        });
      } catch (err) {
        restore();
        throw err;
      }
      if (result.dropped.length) ctx.log('info', `Left out: ${result.dropped.join(', ')}`);
      // One line per link left out (the rest of the upload is extracted): a user can see each one.
      for (const link of result.droppedLinks.slice(0, MAX_EXTRACT_REPORT_ITEMS)) {
        const target = link.target === null ? '' : ` -> ${link.target}`;
        ctx.log('warn', `Left out the link ${link.path}${target}: ${link.reason}.`);
      }
      if (result.droppedLinks.length > MAX_EXTRACT_REPORT_ITEMS) {
        ctx.log(
          'warn',
          `… and ${result.droppedLinks.length - MAX_EXTRACT_REPORT_ITEMS} more links left out.`,
        );
      }
      if (result.links.length) {
        const shown = result.links.slice(0, 5).map((l) => `${l.path} -> ${l.target}`);
        const more = result.links.length > 5 ? `, … (${result.links.length} in all)` : '';
        ctx.log(
          'info',
          `Kept ${plural(result.links.length, 'link')} inside the project: ${shown.join(', ')}${more}`,
        );
      }
      ctx.log('success', `Extracted ${plural(result.fileCount, 'file')}.`);
      ctx.record({ extraction: reportOf(result) });
      const stripped = result.strippedPrefix ? `, top folder ${result.strippedPrefix}/ stripped` : '';
      const links = [
        result.links.length ? plural(result.links.length, 'link') : '',
        result.droppedLinks.length ? `${plural(result.droppedLinks.length, 'link')} left out` : '',
      ].filter(Boolean);
      return {
        ok: true,
        value: result,
        detail:
          [`${plural(result.fileCount, 'file')}`, formatBytes(result.totalBytes), ...links].join(', ') +
          stripped,
      };
    },
  };
}

/** What the build record keeps of an extraction: bounded lists, exact counts. */
function reportOf(result: ExtractResult): ExtractReport {
  const cap = <T>(items: readonly T[]): T[] => items.slice(0, MAX_EXTRACT_REPORT_ITEMS);
  return {
    strippedPrefix: result.strippedPrefix,
    leftOut: cap(result.dropped),
    leftOutCount: result.dropped.length,
    links: cap(result.links),
    linkCount: result.links.length,
    linksLeftOut: cap(result.droppedLinks),
    linksLeftOutCount: result.droppedLinks.length,
  };
}
