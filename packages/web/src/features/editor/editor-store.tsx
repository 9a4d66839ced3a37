import { createContext, useContext, useState, useSyncExternalStore, type ReactNode } from 'react';
import { EMPTY_WORKSPACE, type Workspace } from './editor-state.ts';

/**
 * Open editor files, shared by the code area and the file tree (double-click in the tree opens a tab
 * in the code area). Kept per project: `key` is the project name, '' for "the daemon's current".
 */
export interface EditorStore {
  getSnapshot: () => EditorSnapshot;
  subscribe: (listener: () => void) => () => void;
  workspace: (key: string) => Workspace;
  /** Apply a pure change (editor-state.ts) to one project's tabs. */
  update: (key: string, change: (ws: Workspace) => Workspace) => void;
  /** A fresh id for a tab. */
  nextId: () => string;
  /** A fresh "Untitled-n" name for a new file. */
  nextUntitledName: () => string;
}

export type EditorSnapshot = Readonly<Record<string, Workspace>>;

export function createEditorStore(): EditorStore {
  let workspaces: EditorSnapshot = {};
  let ids = 0;
  let untitled = 0;
  const listeners = new Set<() => void>();
  const workspace = (key: string) => workspaces[key] ?? EMPTY_WORKSPACE;
  return {
    getSnapshot: () => workspaces,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    workspace,
    update: (key, change) => {
      const before = workspace(key);
      const after = change(before);
      if (after === before) return;
      workspaces = { ...workspaces, [key]: after };
      for (const listener of listeners) listener();
    },
    nextId: () => `tab-${++ids}`,
    nextUntitledName: () => `Untitled-${++untitled}`,
  };
}

/**
 * One store for the whole page, so the code area and the tree (placed independently by the
 * dashboard) meet without a provider above them; tests pass their own through EditorStoreProvider.
 */
const pageStore = createEditorStore();
const EditorStoreContext = createContext<EditorStore>(pageStore);

export function EditorStoreProvider({ store, children }: { store?: EditorStore; children: ReactNode }) {
  const [value] = useState(() => store ?? createEditorStore());
  return <EditorStoreContext.Provider value={value}>{children}</EditorStoreContext.Provider>;
}

export const useEditorStore = (): EditorStore => useContext(EditorStoreContext);

/** The tabs of one project, re-rendering when they change. */
export function useWorkspace(key: string): Workspace {
  const store = useEditorStore();
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return snapshot[key] ?? EMPTY_WORKSPACE;
}
