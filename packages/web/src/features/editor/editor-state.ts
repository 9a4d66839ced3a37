import type { FileNode } from '@forge/shared';
import { languageFromPath } from '@forge/shared/schema-free';
import { baseName, isWithin, movedPath } from '@/features/files/tree.ts';

/**
 * One open file in the code area (docs/product.md#entities "Open editor file"); the icon is derived from the
 * name.
 */
export interface EditorTab {
  /** Stable id for React keys and the editor model; survives a rename or a first save. */
  id: string;
  name: string;
  /** Project-relative path; absent for a new file that was never saved. */
  path?: string;
  language: string;
  /** What the editor shows, including unsaved edits. */
  content: string;
  /** What is on disk as far as we know: the last loaded, saved or pushed content. */
  savedContent: string;
  /** Content of a save still in flight, so its echo from the file watcher is not taken for a change. */
  savingContent?: string;
  /** A place to show (a build error's file:line): the editor moves its cursor there once per `id`. */
  reveal?: EditorReveal;
}

/** A line (and column) the editor should scroll to and put the cursor on; a new `id` asks again. */
export interface EditorReveal {
  id: string;
  line: number;
  column?: number;
}

/** The tabs of one project; switching projects keeps each project's tabs and unsaved edits. */
export interface Workspace {
  tabs: EditorTab[];
  activeId: string | null;
  /** 'loading' while the first files are fetched (docs/product.md#code-area "Loading project files"). */
  status: 'idle' | 'loading' | 'ready';
}

export const EMPTY_WORKSPACE: Workspace = { tabs: [], activeId: null, status: 'idle' };

/** Files the code area opens first (docs/product.md#code-area); those a project lacks are skipped. */
export const INITIAL_FILES = [
  'client/src/App.tsx',
  'client/src/index.css',
  'package.json',
  'server/routes.ts',
];

/**
 * Whether `path` may be in the project, by its file tree: false only when the tree shows every
 * folder on the way and the file is not there; true when a folder on the way was not listed
 * (ignored, or past the tree's size limit), since then the tree cannot tell.
 */
export function mayHaveFile(tree: readonly FileNode[], path: string): boolean {
  const parts = path.split('/');
  let level: readonly FileNode[] = tree;
  for (const [i, part] of parts.entries()) {
    const node = level.find((n) => n.name === part);
    if (!node) return false;
    if (i === parts.length - 1) return node.type === 'file';
    if (node.type !== 'folder') return false;
    if (node.folded || !node.children) return true;
    level = node.children;
  }
  return false;
}

/** Unsaved: never saved at all, or edited since it was last saved or loaded. */
export const isDirty = (tab: EditorTab): boolean =>
  tab.path === undefined || tab.content !== tab.savedContent;

/** docs/product.md#code-area: a tab can be closed only while more than one tab is open. */
export const canCloseTab = (ws: Workspace): boolean => ws.tabs.length > 1;

export const activeTab = (ws: Workspace): EditorTab | undefined =>
  ws.tabs.find((t) => t.id === ws.activeId) ?? ws.tabs[0];

export function tabForFile(id: string, path: string, content: string): EditorTab {
  return { id, name: baseName(path), path, language: languageFromPath(path), content, savedContent: content };
}

/** Open a loaded file and select it; a file already open is only selected (docs/product.md#code-area). */
export function openTab(ws: Workspace, tab: EditorTab): Workspace {
  const existing = tab.path === undefined ? undefined : ws.tabs.find((t) => t.path === tab.path);
  if (existing) return { ...ws, activeId: existing.id };
  return { ...ws, tabs: [...ws.tabs, tab], activeId: tab.id };
}

export function selectTab(ws: Workspace, id: string): Workspace {
  return ws.tabs.some((t) => t.id === id) ? { ...ws, activeId: id } : ws;
}

/** Close a tab unless it is the only one; the neighbour to its right (else left) becomes active. */
export function closeTab(ws: Workspace, id: string): Workspace {
  const index = ws.tabs.findIndex((t) => t.id === id);
  if (index < 0 || !canCloseTab(ws)) return ws;
  return removeTabs(ws, (t) => t.id === id);
}

function removeTabs(ws: Workspace, remove: (tab: EditorTab) => boolean): Workspace {
  const tabs = ws.tabs.filter((t) => !remove(t));
  if (tabs.length === ws.tabs.length) return ws;
  let activeId = ws.activeId;
  if (!tabs.some((t) => t.id === activeId)) {
    const index = ws.tabs.findIndex((t) => t.id === ws.activeId);
    const right = ws.tabs.slice(index + 1).find((t) => tabs.includes(t));
    const left = ws.tabs
      .slice(0, Math.max(0, index))
      .reverse()
      .find((t) => tabs.includes(t));
    activeId = (right ?? left)?.id ?? null;
  }
  return { ...ws, tabs, activeId };
}

const mapTab = (ws: Workspace, id: string, change: (tab: EditorTab) => EditorTab): Workspace => ({
  ...ws,
  tabs: ws.tabs.map((t) => (t.id === id ? change(t) : t)),
});

/** Select the tab and ask the editor to show `reveal` in it. */
export const revealInTab = (ws: Workspace, id: string, reveal: EditorReveal): Workspace =>
  ws.tabs.some((t) => t.id === id) ? { ...mapTab(ws, id, (t) => ({ ...t, reveal })), activeId: id } : ws;

export const editTab = (ws: Workspace, id: string, content: string): Workspace =>
  mapTab(ws, id, (t) => (t.content === content ? t : { ...t, content }));

export const markSaving = (ws: Workspace, id: string, content: string): Workspace =>
  mapTab(ws, id, (t) => ({ ...t, savingContent: content }));

export const markSaveFailed = (ws: Workspace, id: string): Workspace =>
  mapTab(ws, id, ({ savingContent: _s, ...t }) => t);

/**
 * A save of `content` to `path` succeeded. The editor keeps anything typed meanwhile (still dirty);
 * a first save gives an untitled tab its path, name and language.
 */
export function markSaved(ws: Workspace, id: string, path: string, content: string): Workspace {
  return mapTab(ws, id, ({ savingContent: _s, ...t }) => ({
    ...t,
    path,
    name: baseName(path),
    language: t.path === path ? t.language : languageFromPath(path),
    savedContent: content,
  }));
}

/** What a push of new file content did to the open tabs. */
export type RemoteOutcome = 'not-open' | 'unchanged' | 'updated' | 'kept-local';

/**
 * The file watcher says `path` now holds `content`. A clean tab takes it; a dirty tab keeps the
 * user's text (the caller says so calmly). The echo of our own save changes nothing visible.
 */
export function applyRemoteContent(
  ws: Workspace,
  path: string,
  content: string,
): { workspace: Workspace; outcome: RemoteOutcome; tab?: EditorTab } {
  const tab = ws.tabs.find((t) => t.path === path);
  if (!tab) return { workspace: ws, outcome: 'not-open' };
  if (content === tab.savedContent || content === tab.savingContent) {
    return { workspace: ws, outcome: 'unchanged', tab };
  }
  if (content === tab.content) {
    return {
      workspace: mapTab(ws, tab.id, (t) => ({ ...t, savedContent: content })),
      outcome: 'unchanged',
      tab,
    };
  }
  if (!isDirty(tab)) {
    return {
      workspace: mapTab(ws, tab.id, (t) => ({ ...t, content, savedContent: content })),
      outcome: 'updated',
      tab,
    };
  }
  // Keep the user's text; what is on disk becomes the new baseline, so the tab stays marked unsaved.
  return {
    workspace: mapTab(ws, tab.id, (t) => ({ ...t, savedContent: content })),
    outcome: 'kept-local',
    tab,
  };
}

/** A file or folder was renamed or moved: open tabs follow it. */
export function renamePaths(ws: Workspace, from: string, to: string): Workspace {
  return {
    ...ws,
    tabs: ws.tabs.map((t) => {
      if (t.path === undefined || !isWithin(t.path, from)) return t;
      const path = movedPath(t.path, from, to);
      return { ...t, path, name: baseName(path), language: languageFromPath(path) };
    }),
  };
}

/** A file or folder was deleted: its tabs close, even the last one (there is nothing left to show). */
export const removePaths = (ws: Workspace, root: string): Workspace =>
  removeTabs(ws, (t) => t.path !== undefined && isWithin(t.path, root));
