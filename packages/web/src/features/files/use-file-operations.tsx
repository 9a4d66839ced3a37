import { useCallback, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { FileNode } from '@forge/shared';
import { UI_TEXT } from '@forge/shared/schema-free';
import { useToast } from '@/components/ui/use-toast.tsx';
import { useEditorStore } from '@/features/editor/editor-store.tsx';
import { removePaths, renamePaths } from '@/features/editor/editor-state.ts';
import { DeleteDialog } from './components/delete-dialog.tsx';
import { NameDialog } from './components/name-dialog.tsx';
import {
  createFile,
  deleteFile,
  failureReason,
  fileStructureQueryKey,
  renameFile,
  useFileProject,
} from './queries.ts';
import { joinPath, parentPath } from './tree.ts';

export type FileKind = 'file' | 'folder';

/** What the tree's context menu (and the explorer's New button) can ask for. */
export interface FileActions {
  create: (type: FileKind, parentPath: string) => void;
  rename: (node: FileNode) => void;
  remove: (node: FileNode) => void;
}

type Pending =
  | { kind: 'create'; type: FileKind; parentPath: string }
  | { kind: 'rename'; node: FileNode }
  | { kind: 'delete'; node: FileNode }
  | null;

/**
 * New File, New Folder, Rename and Delete against the daemon (docs/product.md#file-tree-and-explorer,
 * docs/product.md#http-calls), with their name dialog and delete confirmation. Open editor tabs follow a
 * rename and close with a delete. Render `dialogs`.
 */
export function useFileOperations({
  onCreated,
  onRenamed,
  onDeleted,
}: {
  onCreated?: (path: string, type: FileKind) => void;
  onRenamed?: (from: string, to: string) => void;
  onDeleted?: (path: string) => void;
} = {}): { actions: FileActions; dialogs: ReactNode } {
  const queryClient = useQueryClient();
  const editor = useEditorStore();
  const { project, key } = useFileProject();
  const { toast } = useToast();
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: fileStructureQueryKey(project) });

  const submitName = async (name: string) => {
    if (!pending || pending.kind === 'delete') return;
    setBusy(true);
    try {
      if (pending.kind === 'create') {
        // The first body form of docs/product.md#http-calls: { type, name, parentPath }.
        const { path } = await createFile({
          type: pending.type,
          name,
          parentPath: pending.parentPath,
          project,
        });
        setPending(null);
        onCreated?.(path, pending.type);
      } else {
        const from = pending.node.path;
        const to = joinPath(parentPath(from), name);
        if (to !== from) {
          await renameFile(from, to, project);
          editor.update(key, (ws) => renamePaths(ws, from, to));
          onRenamed?.(from, to);
        }
        setPending(null);
      }
      void refresh();
    } catch (error) {
      // The dialog stays open with the name typed, so it can be corrected and tried again.
      toast({
        title:
          pending.kind === 'create'
            ? UI_TEXT.createFailed(pending.type)
            : `Failed to rename ${pending.node.name}`,
        description: failureReason(error),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  const confirmDelete = async (node: FileNode) => {
    setPending(null);
    try {
      await deleteFile(node.path, project);
      editor.update(key, (ws) => removePaths(ws, node.path));
      onDeleted?.(node.path);
      void refresh();
    } catch (error) {
      toast({
        title: UI_TEXT.deleteFailed(node.name),
        description: failureReason(error),
        variant: 'destructive',
      });
    }
  };

  const create = useCallback((type: FileKind, parent: string) => {
    setPending({ kind: 'create', type, parentPath: parent });
  }, []);
  const rename = useCallback((node: FileNode) => setPending({ kind: 'rename', node }), []);
  const remove = useCallback((node: FileNode) => setPending({ kind: 'delete', node }), []);

  const nameDialog =
    pending?.kind === 'create' ? (
      <NameDialog
        open
        title={pending.type === 'file' ? 'New File' : 'New Folder'}
        description={`In ${pending.parentPath ? pending.parentPath : 'the project root'}.`}
        placeholder={pending.type === 'file' ? 'index.ts' : 'components'}
        busy={busy}
        onSubmit={(name) => void submitName(name)}
        onCancel={() => setPending(null)}
      />
    ) : pending?.kind === 'rename' ? (
      <NameDialog
        open
        title={`Rename ${pending.node.name}`}
        description={`In ${parentPath(pending.node.path) || 'the project root'}.`}
        fieldLabel="New name"
        initialValue={pending.node.name}
        submitLabel="Rename"
        busy={busy}
        onSubmit={(name) => void submitName(name)}
        onCancel={() => setPending(null)}
      />
    ) : null;

  return {
    actions: { create, rename, remove },
    dialogs: (
      <>
        {nameDialog}
        <DeleteDialog
          node={pending?.kind === 'delete' ? pending.node : null}
          onConfirm={(node) => void confirmDelete(node)}
          onCancel={() => setPending(null)}
        />
      </>
    ),
  };
}
