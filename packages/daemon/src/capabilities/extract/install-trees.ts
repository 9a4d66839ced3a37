import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Which `node_modules` folders of an archive are installs (left out: DependencyBot installs afresh,
 * for this machine) and which are project content (kept: a test fixture such as
 * `test/fixtures/app/node_modules/dep/index.js` is source its tests read).
 *
 * A `node_modules` is an install when:
 * 1. it is the project's own: at the archive's root, or directly in the single top folder that is
 *    stripped (where an install of the project writes it);
 * 2. it holds what only a package manager writes there: `.package-lock.json` (npm 7+),
 *    `.modules.yaml` or `.pnpm/` (pnpm), `.yarn-integrity` (Yarn 1), `.yarn-state.yml` (Yarn 2+),
 *    `.bin/` (every one of them, for a dependency's commands), or what tools keep only in an
 *    installed tree (`.cache/`, `.vite/`, Forge's own `.forge-install-key`);
 * 3. it holds a link into an install found by 1 or 2: the node_modules of a pnpm or npm workspace
 *    package links into the root's.
 * Every other folder named node_modules is kept, with its links checked like any other.
 */

/** Names directly inside a node_modules that only a package manager or a tool run from it writes. */
const INSTALL_MARKERS = new Set([
  '.package-lock.json',
  '.modules.yaml',
  '.pnpm',
  '.yarn-integrity',
  '.yarn-state.yml',
  '.bin',
  '.cache',
  '.vite',
  '.forge-install-key',
]);

const NODE_MODULES = 'node_modules';

/** Case-insensitive: on macOS and Windows "Node_Modules" is node_modules. */
const isNodeModules = (segment: string): boolean => segment.toLowerCase() === NODE_MODULES;

/** One entry as the finder needs it: its name's segments, and a link's target when it is one. */
export interface TreeEntry {
  segments: readonly string[];
  /** For a link: reads its target text (null when it cannot be read). Called only when needed. */
  readLink?: () => string | null;
}

export interface InstallTrees {
  /**
   * Where the install that holds `segments` starts ("a/node_modules" as archive segments joined by
   * "/"), or null when the entry is not inside an install. The outermost install wins.
   */
  rootOf(segments: readonly string[]): string | null;
}

/** The archive path of every folder named node_modules on the way to an entry, outermost first. */
function nodeModulesOf(segments: readonly string[]): Array<{ key: string; depth: number }> {
  const found: Array<{ key: string; depth: number }> = [];
  // The entry's own last segment is a folder only when more follows; a file named node_modules is
  // judged as a folder too (a listing may name a folder without its trailing "/").
  for (let i = 0; i < segments.length; i++) {
    if (isNodeModules(segments[i] as string))
      found.push({ key: segments.slice(0, i + 1).join('/'), depth: i });
  }
  return found;
}

/**
 * Finds the installs among the archive's node_modules folders. `top` is the folder every other entry
 * lives in (the one extraction strips), or null.
 */
export function findInstallTrees(entries: readonly TreeEntry[], top: string | null): InstallTrees {
  const installs = new Set<string>();
  const candidates = new Set<string>();
  for (const { segments } of entries) {
    for (const { key, depth } of nodeModulesOf(segments)) {
      candidates.add(key);
      if (depth === 0 || (depth === 1 && segments[0] === top)) installs.add(key);
      const inside = segments[depth + 1];
      if (inside !== undefined && INSTALL_MARKERS.has(inside.toLowerCase())) installs.add(key);
    }
  }

  const outermost = (segments: readonly string[], within: ReadonlySet<string>): string | null => {
    for (const { key } of nodeModulesOf(segments)) if (within.has(key)) return key;
    return null;
  };

  // Rule 3: a node_modules with a link that leads into an install is a workspace package's install.
  if (installs.size > 0) {
    const linked = new Set<string>();
    for (const { segments, readLink } of entries) {
      if (readLink === undefined || outermost(segments, installs) !== null) continue;
      const holder = nodeModulesOf(segments)[0];
      if (holder === undefined) continue;
      const target = readLink();
      const lands = target === null ? null : lexicalTarget(segments, target);
      if (lands !== null && outermost(lands, installs) !== null) linked.add(holder.key);
    }
    for (const key of linked) installs.add(key);
  }

  return { rootOf: (segments) => outermost(segments, installs) };
}

/** Where a relative link target leads, read as text from the link's folder; null when it leaves. */
function lexicalTarget(linkSegments: readonly string[], target: string): string[] | null {
  if (target.startsWith('/') || target.includes('\\')) return null;
  const out = linkSegments.slice(0, -1);
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else {
      out.push(part);
    }
  }
  return out;
}

/**
 * The same question about a project on disk (CacheBot's source hash leaves installs out, and only
 * them: a committed fixture's node_modules is source). `rel` is project-relative; installs are the
 * node_modules of the project root, of the install folder and of the app, one holding what a package
 * manager writes there, and one holding links (a pnpm or npm workspace package's, into the root's).
 */
export function isInstalledNodeModules(
  projectDir: string,
  rel: string,
  installFolders: readonly string[],
): boolean {
  // Called for every entry of a walk: the common answer costs one test.
  if (!/(^|\/)node_modules$/i.test(rel)) return false;
  const owner = rel.slice(0, rel.lastIndexOf('/') + 1).replace(/\/$/, '') || '.';
  if (owner === '.' || installFolders.includes(owner)) return true;
  let entries;
  try {
    entries = readdirSync(path.join(projectDir, rel), { withFileTypes: true });
  } catch {
    return true; // a link named node_modules, or gone: nothing of the project's own to hash
  }
  return entries.some((e) => INSTALL_MARKERS.has(e.name.toLowerCase()) || e.isSymbolicLink());
}
