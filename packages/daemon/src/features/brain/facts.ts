import fs from 'node:fs';
import path from 'node:path';
import { formatCommand, type Blueprint, type Build, type FileNode, type Repair } from '@forge/shared';
import type { CoreServices } from '../services.ts';
import { currentProject } from '../projects/projects.ts';

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
  /** RepairBot's journal for the project, newest first (what it proposed, made, undid). */
  repairs: Repair[];
  /** The built app's package.json, with where each entry stands in it; null when there is none. */
  manifest: Manifest | null;
}

export type FactServices = Pick<CoreServices, 'repo' | 'layout' | 'files' | 'repairs'>;

/** One entry of package.json and the line it is on (1-based), for answers that quote file:line. */
export interface ManifestEntry {
  name: string;
  value: string;
  line: number | null;
}

export interface Manifest {
  /** Project-relative path of the package.json read ("package.json", "apps/web/package.json"). */
  file: string;
  scripts: ManifestEntry[];
  dependencies: ManifestEntry[];
  devDependencies: ManifestEntry[];
  peerDependencies: ManifestEntry[];
}

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

/** The line of `"key":` inside the object `section` of a package.json's text, 1-based. */
function lineOf(lines: string[], section: string, key: string): number | null {
  const start = lines.findIndex((l) => l.includes(`"${section}"`));
  if (start < 0) return null;
  const needle = `"${key}"`;
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i]!.includes(needle)) return i + 1;
    if (/^\s*}/.test(lines[i]!)) break;
  }
  return null;
}

function readManifest(projectDir: string, appDir: string): Manifest | null {
  const rel = appDir === '.' ? 'package.json' : `${appDir.replace(/\/+$/, '')}/package.json`;
  try {
    const file = path.join(projectDir, rel);
    if (fs.statSync(file).size > MAX_PACKAGE_JSON_BYTES) return null;
    const text = fs.readFileSync(file, 'utf8');
    const json = JSON.parse(text) as Record<string, unknown> | null;
    if (!json || typeof json !== 'object') return null;
    const lines = text.split(/\r?\n/);
    const entries = (section: string): ManifestEntry[] => {
      const obj = json[section];
      if (!obj || typeof obj !== 'object') return [];
      return Object.entries(obj)
        .filter((e): e is [string, string] => typeof e[1] === 'string')
        .map(([name, value]) => ({ name, value, line: lineOf(lines, section, name) }));
    };
    return {
      file: rel,
      scripts: entries('scripts'),
      dependencies: entries('dependencies'),
      devDependencies: entries('devDependencies'),
      peerDependencies: entries('peerDependencies'),
    };
  } catch {
    return null;
  }
}

/** The facts of the project asked, else the current one (the user's last choice); null when there is none. */
export function projectFacts(services: FactServices, asked?: string | null): ProjectFacts | null {
  const name = asked ?? currentProject(services.repo);
  if (name === null || !services.repo.project(name)) return null;
  const builds = services.repo.list({ project: name, limit: 20 });
  const blueprint = builds.find((b) => b.blueprint)?.blueprint ?? null;
  const projectDir = services.layout.projectDir(name);
  const appDir = path.join(projectDir, blueprint?.appDir ?? '.');
  let repairs: Repair[] = [];
  try {
    repairs = services.repairs.list(name);
  } catch {
    repairs = [];
  }
  return {
    name,
    blueprint,
    scripts: readScripts(appDir),
    builds,
    repairs,
    manifest: readManifest(projectDir, blueprint?.appDir ?? '.'),
  };
}

/** The names of every project Forge holds. */
export const projectNames = (services: FactServices): string[] => services.repo.projects().map((p) => p.name);

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
