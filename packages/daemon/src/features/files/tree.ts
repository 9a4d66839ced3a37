import fs from 'node:fs';
import path from 'node:path';
import { MAX_TREE_NODES, type FileNode } from '@forge/shared';

/** Folders shown but never listed, wherever they are: installs and history (docs/decisions.md "Files"). */
export const FOLDED_NAMES: ReadonlySet<string> = new Set(['node_modules', '.git']);

export interface TreeOptions {
  /** Project-relative folders shown but not listed, besides FOLDED_NAMES (the build output folder). */
  folded?: ReadonlySet<string>;
  maxNodes?: number;
}

export interface Tree {
  tree: FileNode[];
  /** The node cap was reached: folders past it carry `folded: 'limit'`. */
  truncated: boolean;
  nodes: number;
}

interface PendingDir {
  abs: string;
  rel: string;
  children: FileNode[];
  node: FileNode | null;
}

/** A node with its sort key: folders first, then by name ignoring case, then exactly. */
interface Keyed {
  node: FileNode;
  key: string;
}
const byKey = (a: Keyed, b: Keyed): number =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : a.node.name < b.node.name ? -1 : a.node.name > b.node.name ? 1 : 0;

const sizeOf = (abs: string): number => {
  try {
    return fs.statSync(abs).size;
  } catch {
    return 0; // removed since its folder was read
  }
};

/**
 * The file tree of `root`, breadth first so a cut at `maxNodes` keeps the upper levels whole.
 * Synchronous readdir with file types plus one stat per file for its size: ~3× a bare readdir
 * (shared PERFORMANCE.md), well under the 100 ms budget for 10k files. Links are listed, never
 * followed into (a link may point out of the project or into a cycle).
 */
export function readTree(root: string, opts: TreeOptions = {}): Tree {
  const maxNodes = opts.maxNodes ?? MAX_TREE_NODES;
  const folded = opts.folded ?? new Set<string>();
  const top: FileNode[] = [];
  const queue: PendingDir[] = [{ abs: root, rel: '', children: top, node: null }];
  let nodes = 0;
  let truncated = false;

  for (let i = 0; i < queue.length; i++) {
    const dir = queue[i]!;
    if (truncated && dir.node) {
      dir.node.folded = 'limit';
      continue;
    }
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir.abs, { withFileTypes: true });
    } catch {
      continue; // removed or unreadable since its parent was listed
    }
    if (nodes + entries.length > maxNodes) {
      truncated = true;
      if (dir.node) {
        dir.node.folded = 'limit';
        continue;
      }
      entries = entries.sort((a, b) => (a.name < b.name ? -1 : 1)).slice(0, maxNodes - nodes);
    }
    const keyed: Keyed[] = [];
    for (const entry of entries) {
      const rel = dir.rel ? `${dir.rel}/${entry.name}` : entry.name;
      // Concatenation, not path.join: this runs once per file and join normalises for nothing here.
      const abs = `${dir.abs}${path.sep}${entry.name}`;
      let node: FileNode;
      if (entry.isDirectory()) {
        node = { name: entry.name, path: rel, type: 'folder', children: [] };
        if (FOLDED_NAMES.has(entry.name) || folded.has(rel)) node.folded = 'ignored';
        else queue.push({ abs, rel, children: node.children!, node });
      } else if (entry.isFile()) {
        node = { name: entry.name, path: rel, type: 'file', size: sizeOf(abs) };
      } else if (entry.isSymbolicLink()) {
        const target = fs.statSync(abs, { throwIfNoEntry: false });
        node = target?.isDirectory()
          ? { name: entry.name, path: rel, type: 'folder', children: [], folded: 'ignored' }
          : { name: entry.name, path: rel, type: 'file', size: target?.size ?? 0 };
      } else {
        continue; // sockets, FIFOs, devices: nothing an editor can open
      }
      keyed.push({ node, key: `${node.type === 'folder' ? 0 : 1}${node.name.toLowerCase()}` });
      nodes++;
    }
    keyed.sort(byKey);
    for (const k of keyed) dir.children.push(k.node);
  }
  return { tree: top, truncated, nodes };
}
