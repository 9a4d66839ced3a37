import fs from 'node:fs';
import type { ProjectKind } from '@forge/shared';
import { ForgeError } from '../../http/forge-error.ts';
import { rolledBackTree } from '../../capabilities/artifacts/rolled-back.ts';
import { isValidProjectName, type HomeLayout } from '../../home-layout.ts';
import type { BuildRepo } from '../../engine/build-repo.ts';

/**
 * What a project is to every feature: which one a request means (the current one, or the one it
 * names, which must exist) and where its downloadable output is. The project routes and the
 * assistants, repairs, integration and bots all answer from these.
 */

export interface ProjectStore {
  repo: BuildRepo;
  layout: HomeLayout;
}

/** Where the downloadable output of a project built from `kind` is, or null when it has none. */
export function artifactDirOf(
  layout: HomeLayout,
  name: string,
  kind: ProjectKind | null | undefined,
  buildId?: string | null,
): string | null {
  if (!kind) return null;
  // A plain static site and a server app ship their sources (or, rolled back, the earlier build's
  // tree); a built site ships its output.
  const dir =
    kind === 'static-build'
      ? layout.outputDir(name)
      : (rolledBackTree(layout, name, buildId) ?? layout.projectDir(name));
  return fs.existsSync(dir) ? dir : null;
}

/** Where the downloadable build output of a project is, or null when it has none. */
export function artifactDir(deps: ProjectStore, name: string): string | null {
  const output = deps.repo.project(name)?.output;
  if (!output) return null;
  return artifactDirOf(deps.layout, name, deps.repo.get(output.buildId)?.blueprint?.kind, output.buildId);
}

/** Refuse a name that is not an uploaded project with its files (404 PROJECT_NOT_FOUND). */
export function requireProject(deps: ProjectStore, name: string): void {
  if (!isValidProjectName(name) || !deps.repo.project(name) || !fs.existsSync(deps.layout.projectDir(name))) {
    throw new ForgeError('PROJECT_NOT_FOUND', `There is no project named "${name}".`);
  }
}

/**
 * The project a request means when it names none: the one the user last chose (an accepted upload,
 * the web's selector, `forge use`). Rebuilds in the background (Auto-Forge, repairs) never change it.
 * Before any choice (a store from an older Forge), the most recently updated project.
 */
export function currentProject(repo: BuildRepo): string | null {
  const chosen = repo.chosenProject();
  if (chosen !== null && repo.project(chosen)) return chosen;
  return repo.newestProject();
}

/** The project a request asked for (it must exist), else the current one; null when there is none. */
export function projectAsked(deps: ProjectStore, asked: string | undefined): string | null {
  if (asked === undefined || asked === '') return currentProject(deps.repo);
  requireProject(deps, asked);
  return asked;
}
