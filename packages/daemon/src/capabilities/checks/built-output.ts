/**
 * After a successful build of a static site: the folder to serve, or why there is none. The planned
 * folder when it holds a site (an index.html at its root, written by this build when the build wrote
 * any); else the site the build wrote elsewhere (written-output.ts), preferring the folders a deploy
 * config publishes, then those frameworks write; else a failure that says what was written.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Blueprint } from '@forge/shared';
import { isInsideReal } from '../../fs/contain.ts';
import { readDeployConfig } from '../detect/deploy-configs.ts';
import { projectDir as canonicalDir } from '../detect/framework-context.ts';
import { openProject, projectFolder } from '../detect/project-files.ts';
import {
  FRAMEWORK_OUTPUTS,
  INDEX_HTML,
  MAX_SITE_DEPTH_IN_PLANNED,
  chooseSite,
  foldersWrittenSince,
  hasEntries,
  hasIndexHtml,
  htmlFilesIn,
  indexWrittenSince,
  writtenSites,
} from './written-output.ts';

export type BuiltOutput =
  | { ok: true; dir: string; found: null }
  /** Not the planned folder: found where the build wrote its site; `index` is its index.html. */
  | { ok: true; dir: string; found: { why: string; index: string } }
  | { ok: false; code: 'OUTPUT_MISSING' | 'OUTPUT_NO_INDEX'; message: string };

/** The forge config names the output: Forge serves that folder, and looks nowhere else. */
const fromForgeConfig = (bp: Blueprint): boolean =>
  bp.decisions.findLast((d) => d.field === 'outputDir')?.rule === 'outputDir from the forge config';

const isDir = (abs: string, projectDir: string): boolean => hasEntries(abs) && isInsideReal(projectDir, abs);

/** Folders the app's deploy configs publish (project-relative), each with the setting that names it. */
async function publishedDirs(projectDir: string, appDir: string): Promise<{ dir: string; why: string }[]> {
  try {
    const files = await openProject(projectDir);
    const config = await readDeployConfig(projectFolder(files, appDir));
    return [config.publish, ...config.otherPublish].flatMap((s) => {
      const dir = s ? canonicalDir(appDir, s.value) : null;
      return s && dir && dir !== '.'
        ? [{ dir, why: `the folder ${s.key} in ${path.posix.join(appDir, s.file)} publishes` }]
        : [];
    });
  } catch {
    return [];
  }
}

/**
 * Where the site of a static build is. `since` is when the build step started (ms), or null when it
 * is not known (then only the planned folder is looked at).
 */
export async function builtOutput(input: {
  projectDir: string;
  blueprint: Blueprint;
  since: number | null;
}): Promise<BuiltOutput> {
  const { projectDir, blueprint: bp, since } = input;
  const planned = bp.outputDir ?? 'dist';
  const abs = path.join(projectDir, planned);
  const plannedHasSite = isDir(abs, projectDir) && hasIndexHtml(abs);
  const pinned = fromForgeConfig(bp);
  if (plannedHasSite && (since === null || pinned || indexWrittenSince(abs, since))) {
    return { ok: true, dir: planned, found: null };
  }
  if (since !== null && !pinned) {
    const sites = (await writtenSites(projectDir, bp.appDir, since)).filter((site) => {
      const inside = site.dir.startsWith(`${planned}/`) ? site.dir.slice(planned.length + 1) : null;
      return inside === null || inside.split('/').length <= MAX_SITE_DEPTH_IN_PLANNED;
    });
    const preferred = [
      ...(await publishedDirs(projectDir, bp.appDir)),
      ...FRAMEWORK_OUTPUTS.map((dir) => ({
        dir: path.posix.join(bp.appDir, dir),
        why: `where frameworks write their sites (${dir}/)`,
      })),
    ];
    const choice = chooseSite(sites, preferred);
    if (choice) {
      return { ok: true, dir: choice.dir, found: { why: choice.why, index: `${choice.dir}/${INDEX_HTML}` } };
    }
  }
  // An index.html the build did not rewrite is still the site when the build wrote no other.
  if (plannedHasSite) return { ok: true, dir: planned, found: null };

  const fix = `Make the build write the site's ${INDEX_HTML} there, or set "outputDir" in the forge config to the folder that holds it.`;
  if (isDir(abs, projectDir)) {
    const html = await htmlFilesIn(abs);
    const holds =
      html.files.length > 0
        ? `It holds ${html.files.join(', ')}${html.more ? ' and more' : ''}.`
        : 'It holds no HTML file.';
    return {
      ok: false,
      code: 'OUTPUT_NO_INDEX',
      message: `The build wrote "${planned}" but no ${INDEX_HTML} at its root, so its preview would serve nothing at /. ${holds} ${fix}`,
    };
  }
  const written =
    since === null
      ? []
      : await foldersWrittenSince(
          projectDir,
          FRAMEWORK_OUTPUTS.map((dir) => path.posix.join(bp.appDir, dir)).filter((dir) => dir !== planned),
          since,
        );
  const elsewhere =
    written.length > 0
      ? ` It wrote files to ${written.map((d) => `"${d}"`).join(', ')}, with no ${INDEX_HTML} at their root.`
      : since === null
        ? ''
        : ` It wrote no ${INDEX_HTML} anywhere in the project.`;
  const state = !existsAsDir(abs)
    ? 'was not created'
    : isInsideReal(projectDir, abs)
      ? 'is empty'
      : 'is a link out of the project, which is never served';
  return {
    ok: false,
    code: 'OUTPUT_MISSING',
    message: `The build finished but its output folder "${planned}" ${state}.${elsewhere}`,
  };
}

function existsAsDir(abs: string): boolean {
  return statSync(abs, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
