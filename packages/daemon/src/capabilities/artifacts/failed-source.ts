import fs from 'node:fs';
import path from 'node:path';
import type { Blueprint } from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import { skipInstalls, sourceDateEpoch } from './record.ts';
import { zipDirToFile } from './zip-dir.ts';

/** How many failed builds' sources each project keeps (the newest). */
export const KEEP_FAILED_SOURCES = 10;

/** Where a failed build's source ZIP is kept. */
export const failedSourceFile = (layout: HomeLayout, project: string, buildId: string): string =>
  path.join(layout.failedSourcesDir(project), `${buildId}.zip`);

/**
 * Keep the tree a failed build was made from, as the reproducible source ZIP a successful build's
 * record holds (capabilities/artifacts/record.ts), so "why is it red now?" compares what each build
 * really had: by the time it is asked, the project folder may hold a later upload. Without installs,
 * version control or the plan's output folder. Never throws: a failure to keep it only means that
 * build cannot be compared.
 */
export async function keepFailedSource(
  layout: HomeLayout,
  project: string,
  buildId: string,
  blueprint: Blueprint | null,
): Promise<boolean> {
  const projectDir = layout.projectDir(project);
  // A build that stopped before its files were extracted and planned has no source of its own.
  if (!blueprint || !fs.existsSync(projectDir)) return false;
  const dir = layout.failedSourcesDir(project);
  const file = failedSourceFile(layout, project, buildId);
  const partial = `${file}.partial-${process.pid}`;
  const output = blueprint.outputDir ? path.posix.join(blueprint.appDir, blueprint.outputDir) : null;
  try {
    await fs.promises.mkdir(dir, { recursive: true });
    await zipDirToFile(projectDir, partial, {
      reproducible: { epochMs: sourceDateEpoch() * 1000 },
      exclude: (rel) =>
        skipInstalls(rel) ||
        (output !== null && output !== '.' && (rel === output || rel.startsWith(`${output}/`))),
    });
    await fs.promises.rename(partial, file);
    await pruneFailedSources(dir, `${buildId}.zip`);
    return true;
  } catch {
    await fs.promises.rm(partial, { force: true }).catch(() => undefined);
    return false;
  }
}

async function pruneFailedSources(dir: string, keep: string): Promise<void> {
  const names = (await fs.promises.readdir(dir)).filter((n) => n.endsWith('.zip'));
  if (names.length <= KEEP_FAILED_SOURCES) return;
  const dated = await Promise.all(
    names.map(async (name) => ({
      name,
      mtimeMs: (await fs.promises.stat(path.join(dir, name)).catch(() => null))?.mtimeMs ?? 0,
    })),
  );
  dated.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const old of dated.slice(KEEP_FAILED_SOURCES)) {
    if (old.name !== keep) await fs.promises.rm(path.join(dir, old.name), { force: true });
  }
}
