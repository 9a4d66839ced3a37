import type { FileNode } from '@forge/shared';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';

/**
 * docs/product.md#file-tree-and-explorer / docs/product.md#validation: deleting asks "Are you sure you want
 * to delete {name}?" first.
 */
export function DeleteDialog({
  node,
  onConfirm,
  onCancel,
}: {
  node: FileNode | null;
  onConfirm: (node: FileNode) => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open={node !== null}
      onOpenChange={(open) => (open ? undefined : onCancel())}
      title={node ? `Are you sure you want to delete ${node.name}?` : ''}
      action="Delete"
      onConfirm={() => node && onConfirm(node)}
    >
      {node?.type === 'folder'
        ? `The folder ${node.path} and everything in it are removed from the project on disk.`
        : `The file ${node?.path ?? ''} is removed from the project on disk.`}{' '}
      This cannot be undone.
    </ConfirmDialog>
  );
}
