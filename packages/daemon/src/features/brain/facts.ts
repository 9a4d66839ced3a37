import fs from 'node:fs';
import path from 'node:path';
import { formatCommand, type Blueprint, type Build, type FileNode } from '@forge/shared';
import type { AppServices } from '../../app.ts';
import { currentProject } from '../projects/routes.ts';

/** package.json larger than this is not read for its scripts. */
const MAX_PACKAGE_JSON_BYTES = 1024 * 1024;

/** What Forge knows about the current project: the facts the brain answers from. */
export interface ProjectFacts {
  name: string;
  /** The newest plan BlueprintBot made for it. */
  blueprint: Blueprint | null;
  /** package.json scripts of the app that is built ("." unless the project holds several apps). */
  scripts: Record<string, string>;
  /** Newest build first (at most a few). */
  builds: Build[];
}

export type FactServices = Pick<AppServices, 'repo' | 'layout' | 'files'>;

function readScripts(dir: string): Record<string, string> {
  try {
    const file = path.join(dir, 'package.json');
    if (fs.statSync(file).size > MAX_PACKAGE_JSON_BYTES) return {};
    const json: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    const scripts = (json as { scripts?: unknown } | null)?.scripts;
    if (!scripts || typeof scripts !== 'object') return {};
    return Object.fromEntries(
      Object.entries(scripts).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/** The facts of the project asked, else the current one (the user's last choice); null when there is none. */
export function projectFacts(services: FactServices, asked?: string | null): ProjectFacts | null {
  const name = asked ?? currentProject(services.repo);
  if (name === null || !services.repo.project(name)) return null;
  const builds = services.repo.list({ project: name, limit: 10 });
  const blueprint = builds.find((b) => b.blueprint)?.blueprint ?? null;
  const appDir = path.join(services.layout.projectDir(name), blueprint?.appDir ?? '.');
  return { name, blueprint, scripts: readScripts(appDir), builds };
}

export interface FileFacts {
  /** Project-relative paths of every file listed (installs and the build output are not). */
  files: string[];
  folders: number;
  /** The listing stopped at the tree's node cap. */
  truncated: boolean;
}

/** The project's files as the file tree lists them. */
export async function fileFacts(services: FactServices, project: string): Promise<FileFacts> {
  const { tree, truncated } = await services.files.structure(project);
  const files: string[] = [];
  let folders = 0;
  const walk = (nodes: FileNode[]) => {
    for (const node of nodes) {
      if (node.type === 'file') files.push(node.path);
      else {
        if (!node.folded) folders++;
        if (node.children) walk(node.children);
      }
    }
  };
  walk(tree);
  return { files, folders, truncated: truncated === true };
}

/** "npm run build" from ["npm","run","build"]. */
export const commandText = (argv: readonly string[] | null): string | null =>
  argv ? formatCommand(argv) : null;
