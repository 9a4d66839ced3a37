import type { FileNode } from '@forge/shared';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog.tsx';

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
    <AlertDialog open={node !== null} onOpenChange={(open) => (open ? undefined : onCancel())}>
      {node ? (
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Are you sure you want to delete {node.name}?</AlertDialogTitle>
            <AlertDialogDescription>
              {node.type === 'folder'
                ? `The folder ${node.path} and everything in it are removed from the project on disk.`
                : `The file ${node.path} is removed from the project on disk.`}{' '}
              This cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction variant="destructive" onClick={() => onConfirm(node)}>
              Delete
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      ) : null}
    </AlertDialog>
  );
}
