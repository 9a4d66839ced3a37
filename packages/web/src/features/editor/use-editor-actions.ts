import { useCallback } from 'react';
import { UI_TEXT } from '@forge/shared/schema-free';
import { useToast } from '@/components/ui/use-toast.tsx';
import {
  createFile,
  failureReason,
  fetchFileContent,
  saveFile,
  useFileProject,
} from '@/features/files/queries.ts';
import {
  markSaveFailed,
  markSaved,
  markSaving,
  openTab,
  revealInTab,
  tabForFile,
  type EditorTab,
} from './editor-state.ts';
import { useEditorStore } from './editor-store.tsx';

export type SaveResult = 'saved' | 'failed' | 'needs-path' | 'not-found';

/**
 * What the code area and the file tree do to open files: open (the tree's double-click), start a
 * new untitled file, save (docs/product.md#code-area "File saved" / docs/product.md#error-texts "Unable to
 * save file. Please try again.").
 */
export function useEditorActions() {
  const store = useEditorStore();
  const { project, key } = useFileProject();
  const { toast } = useToast();

  /** Open `path` (or select its tab); with `at`, the editor then shows that line with the cursor on it. */
  const openFile = useCallback(
    async (path: string, at?: { line: number; column?: number }): Promise<boolean> => {
      const show = (tabId: string) => {
        if (at) store.update(key, (ws) => revealInTab(ws, tabId, { id: store.nextId(), ...at }));
      };
      const open = store.workspace(key).tabs.find((t) => t.path === path);
      if (open) {
        store.update(key, (ws) => ({ ...ws, activeId: open.id }));
        show(open.id);
        return true;
      }
      try {
        const content = await fetchFileContent(path, project);
        const tab = tabForFile(store.nextId(), path, content);
        store.update(key, (ws) => openTab(ws, tab));
        // Opened meanwhile by another click: the tab that holds the path gets the place.
        show(store.workspace(key).tabs.find((t) => t.path === path)?.id ?? tab.id);
        return true;
      } catch (error) {
        toast({ title: UI_TEXT.fileLoadError, description: failureReason(error), variant: 'destructive' });
        return false;
      }
    },
    [store, key, project, toast],
  );

  const newFile = useCallback(() => {
    const tab: EditorTab = {
      id: store.nextId(),
      name: store.nextUntitledName(),
      language: 'typescript',
      content: '',
      savedContent: '',
    };
    store.update(key, (ws) => openTab(ws, tab));
  }, [store, key]);

  /** Save a tab to its path, or to `asPath` (creating the file) when it has none yet. */
  const save = useCallback(
    async (tabId: string, asPath?: string): Promise<SaveResult> => {
      const tab = store.workspace(key).tabs.find((t) => t.id === tabId);
      if (!tab) return 'not-found';
      const path = tab.path ?? asPath;
      if (!path) return 'needs-path';
      const { content } = tab;
      store.update(key, (ws) => markSaving(ws, tabId, content));
      try {
        if (tab.path) await saveFile(path, content, project);
        else await createFile({ path, content, project });
        store.update(key, (ws) => markSaved(ws, tabId, path, content));
        toast({ title: UI_TEXT.fileSaved, description: path });
        return 'saved';
      } catch (error) {
        store.update(key, (ws) => markSaveFailed(ws, tabId));
        toast({ title: UI_TEXT.saveFailed, description: failureReason(error), variant: 'destructive' });
        return 'failed';
      }
    },
    [store, key, project, toast],
  );

  return { openFile, newFile, save, key, project };
}
