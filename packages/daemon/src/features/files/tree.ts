import fs from 'node:fs';
import { MAX_TREE_NODES, type FileNode } from '@forge/shared';
import { timeSlicer } from '../../fs/time-slice.ts';
import { walkLevels, type WalkEntry } from '../../fs/walk.ts';

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

/** What a listed folder fills in: its node's children (the top level for the root). */
interface Slot {
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

/** stat (links followed) or null: removed since its folder was read, a dangling link, a link loop. */
const statOrNull = (abs: string): fs.Stats | null => {
  try {
    return fs.statSync(abs, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
};

/**
 * The file tree of `root`, breadth first so a cut at `maxNodes` keeps the upper levels whole.
 * The walk (src/fs/walk.ts) lists each folder once; each file then gets one stat for its size:
 * ~3× a bare readdir (shared PERFORMANCE.md), well under the 100 ms budget for 10k files, in time
 * slices so the daemon keeps answering. Links are listed, never followed into (a link may point
 * out of the project or into a cycle).
 */
export async function readTree(root: string, opts: TreeOptions = {}): Promise<Tree> {
  const maxNodes = opts.maxNodes ?? MAX_TREE_NODES;
  const folded = opts.folded ?? new Set<string>();
  const top: FileNode[] = [];
  const levels = walkLevels<Slot>(root, { children: top, node: null });
  const slicer = timeSlicer();
  let nodes = 0;
  let truncated = false;

  for await (const level of levels) {
    let entries: readonly WalkEntry[] = level.entries;
    const slot = level.tag;
    if (nodes + entries.length > maxNodes) {
      truncated = true;
      if (slot.node) {
        slot.node.folded = 'limit';
        entries = [];
      } else {
        // The root is cut rather than folded: its first names (in name order) are shown.
        entries = entries.slice(0, maxNodes - nodes);
      }
    }
    const keyed: Keyed[] = [];
    for (const entry of entries) {
      const { name, rel } = entry;
      let node: FileNode;
      if (entry.kind === 'dir') {
        node = { name, path: rel, type: 'folder', children: [] };
        if (FOLDED_NAMES.has(name) || folded.has(rel)) node.folded = 'ignored';
        else levels.enter(entry, { children: node.children!, node });
      } else if (entry.kind === 'file') {
        node = { name, path: rel, type: 'file', size: statOrNull(entry.abs)?.size ?? 0 };
      } else {
        const target = statOrNull(entry.abs);
        node = target?.isDirectory()
          ? { name, path: rel, type: 'folder', children: [], folded: 'ignored' }
          : { name, path: rel, type: 'file', size: target?.size ?? 0 };
      }
      keyed.push({ node, key: `${node.type === 'folder' ? 0 : 1}${node.name.toLowerCase()}` });
      nodes++;
      if (slicer.due()) await slicer.pause();
    }
    keyed.sort(byKey);
    for (const k of keyed) slot.children.push(k.node);
    // Past the cap, every folder still waiting is shown folded, not listed.
    if (truncated) for (const waiting of levels.drain()) waiting.node!.folded = 'limit';
  }
  return { tree: top, truncated, nodes };
}
