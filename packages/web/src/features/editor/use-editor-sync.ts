import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { UI_TEXT } from '@forge/shared/schema-free';
import { useSocketMessages } from '@/lib/socket.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import {
  fetchFileContent,
  failureReason,
  fileStructureQuery,
  isNotFound,
  useFileProject,
} from '@/features/files/queries.ts';
import {
  applyRemoteContent,
  INITIAL_FILES,
  isDirty,
  mayHaveFile,
  tabForFile,
  type RemoteOutcome,
} from './editor-state.ts';
import { useEditorStore } from './editor-store.tsx';

/**
 * Keeps the open files of the current project in step with the disk:
 * - the first time a project is shown, opens the four starter files, those it has
 *   (docs/product.md#code-area);
 * - when the code area comes back (after another screen), re-reads the files that have no edits;
 * - applies every pushed `file-content-updated`: a clean tab takes the new text, a dirty one keeps
 *   the user's and says so calmly.
 */
export function useEditorSync() {
  const store = useEditorStore();
  const { project, key, ready } = useFileProject();
  const { toast } = useToast();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!ready) return;
    const status = store.workspace(key).status;
    if (status === 'loading') return;

    if (status === 'ready') {
      // Back on screen: pick up what changed on disk while no socket handler was listening.
      for (const tab of store.workspace(key).tabs) {
        if (!tab.path || isDirty(tab)) continue;
        const path = tab.path;
        fetchFileContent(path, project).then(
          (content) => store.update(key, (ws) => applyRemoteContent(ws, path, content).workspace),
          () => undefined,
        );
      }
      return;
    }

    store.update(key, (ws) => ({ ...ws, status: 'loading' }));
    // Only the starter files the project has are asked for (the explorer's tree, from its cache when
    // it is there): asking for the others would be a 404 for each. Without a tree, all are asked.
    const starters = queryClient.fetchQuery(fileStructureQuery(project)).then(
      ({ tree }) => INITIAL_FILES.filter((path) => mayHaveFile(tree, path)),
      () => INITIAL_FILES,
    );
    // The store outlives this component: results land even if the user navigated away meanwhile.
    void starters.then(async (paths) => {
      const results = await Promise.allSettled(paths.map((path) => fetchFileContent(path, project)));
      store.update(key, (ws) => {
        const loaded = results.flatMap((result, i) => {
          const path = paths[i]!;
          if (result.status !== 'fulfilled' || ws.tabs.some((t) => t.path === path)) return [];
          return [tabForFile(store.nextId(), path, result.value)];
        });
        // Starter files lead; anything the user opened while they loaded follows and stays selected.
        return {
          tabs: [...loaded, ...ws.tabs],
          activeId: ws.activeId ?? loaded[0]?.id ?? null,
          status: 'ready',
        };
      });
      // A project without one of the four is normal (skipped quietly); a daemon that fails is not.
      const failure = results.find(
        (r): r is PromiseRejectedResult => r.status === 'rejected' && !isNotFound(r.reason),
      );
      if (failure && results.every((r) => r.status === 'rejected')) {
        toast({
          title: UI_TEXT.fileLoadError,
          description: failureReason(failure.reason),
          variant: 'destructive',
        });
      }
    });
  }, [ready, key, project, store, toast, queryClient]);

  useSocketMessages((message) => {
    if (message.type !== 'file-content-updated') return;
    if (message.projectName !== undefined && project !== undefined && message.projectName !== project) return;
    let outcome = 'not-open' as RemoteOutcome;
    let name = message.filePath;
    store.update(key, (ws) => {
      const result = applyRemoteContent(ws, message.filePath, message.content);
      outcome = result.outcome;
      name = result.tab?.name ?? name;
      return result.workspace;
    });
    if (outcome === 'kept-local') {
      toast({
        title: `${name} changed on disk`,
        description: 'Your unsaved edits are kept. Saving will replace the version on disk.',
      });
    }
  });
}
