import type { FileNode } from '@forge/shared';
import { TREE_INDENT_CAP_PX, TREE_INDENT_PX } from '@forge/shared/schema-free';

/**
 * Left padding of a tree row at `depth` (docs/product.md#constants: 12 px per level, never more than 48 px).
 */
export function treeIndentPx(depth: number): number {
  return Math.min(Math.max(0, Math.floor(depth)) * TREE_INDENT_PX, TREE_INDENT_CAP_PX);
}

/** Folder holding `path` ('' for the project root). */
export const parentPath = (path: string): string => {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
};

export const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

export const joinPath = (parent: string, name: string): string => (parent ? `${parent}/${name}` : name);

/**
 * Why a typed name cannot be used, or null when it can. docs/product.md#validation asks for a non-blank name;
 * the rest keeps the name inside its folder so the daemon does not have to refuse it. `allowFolders` lets a
 * project-relative path ("src/new.ts") through where the user types a whole path.
 */
export function nameProblem(
  raw: string,
  { allowFolders = false }: { allowFolders?: boolean } = {},
): string | null {
  const name = raw.trim();
  if (!name) return 'Enter a name.';
  if (name.includes('\0') || name.includes('\\')) return 'A name cannot contain \\ or NUL.';
  if (!allowFolders && name.includes('/')) return 'A name cannot contain /.';
  if (name.startsWith('/')) return 'Use a path relative to the project root.';
  const segments = name.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..'))
    return 'Each part of the path needs a real name.';
  return null;
}

/** Folders first, then names in natural order (file2 before file10), as editors list them. */
export function sortTree(nodes: readonly FileNode[]): FileNode[] {
  return [...nodes]
    .sort((a, b) =>
      a.type === b.type
        ? a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' })
        : a.type === 'folder'
          ? -1
          : 1,
    )
    .map((n) => (n.children ? { ...n, children: sortTree(n.children) } : n));
}

export function findNode(nodes: readonly FileNode[] | undefined, path: string): FileNode | undefined {
  for (const node of nodes ?? []) {
    if (node.path === path) return node;
    if (node.type === 'folder' && (path.startsWith(`${node.path}/`) || node.path === '')) {
      const hit = findNode(node.children, path);
      if (hit) return hit;
    }
  }
  return undefined;
}

function fileSizes(nodes: readonly FileNode[] | undefined, into = new Map<string, number | undefined>()) {
  for (const node of nodes ?? []) {
    if (node.type === 'file') into.set(node.path, node.size);
    else fileSizes(node.children, into);
  }
  return into;
}

/**
 * Files that a pushed tree shows as new or resized compared with the one on screen: the ones to
 * highlight. A first tree (nothing on screen yet) highlights nothing.
 */
export function changedFilePaths(
  previous: readonly FileNode[] | undefined,
  next: readonly FileNode[],
): string[] {
  if (!previous) return [];
  const before = fileSizes(previous);
  const changed: string[] = [];
  for (const [path, size] of fileSizes(next)) {
    if (!before.has(path) || before.get(path) !== size) changed.push(path);
  }
  return changed;
}

/** Where `path` lives after `from` was renamed to `to` (itself, or something inside a moved folder). */
export function movedPath(path: string, from: string, to: string): string {
  if (path === from) return to;
  if (path.startsWith(`${from}/`)) return to + path.slice(from.length);
  return path;
}

/** Whether `path` is `root` or inside it (for a deleted folder's open files). */
export const isWithin = (path: string, root: string): boolean => path === root || path.startsWith(`${root}/`);

/** One line of the tree as drawn: a node and how deep it sits. */
export interface TreeRow {
  node: FileNode;
  depth: number;
}

/** The rows on screen: every top-level node, and the children of each expanded folder. */
export function visibleRows(nodes: readonly FileNode[], expanded: ReadonlySet<string>, depth = 0): TreeRow[] {
  const rows: TreeRow[] = [];
  for (const node of nodes) {
    rows.push({ node, depth });
    if (node.type === 'folder' && expanded.has(node.path) && node.children) {
      rows.push(...visibleRows(node.children, expanded, depth + 1));
    }
  }
  return rows;
}
