import { useState } from 'react';
import { FilePlus, FolderPlus, FolderTree, RotateCw } from 'lucide-react';
import { UI_TEXT } from '@forge/shared/schema-free';
import { Button } from '@/components/ui/button.tsx';
import { ScrollArea } from '@/components/ui/scroll-area.tsx';
import { useEditorActions } from '@/features/editor/use-editor-actions.ts';
import { useFileOperations } from '../use-file-operations.tsx';
import { useLiveFileTree } from '../use-live-file-tree.ts';
import { FileTree } from './file-tree.tsx';
import { PanelIconButton, TreeSkeleton } from './panel-parts.tsx';

/**
 * The dashboard's file structure panel (docs/product.md#file-tree-and-explorer): the current project's tree,
 * live; a double-click opens a file in the code area.
 */
export function FileStructure() {
  const { structure, highlighted } = useLiveFileTree();
  const { openFile } = useEditorActions();
  const [selected, setSelected] = useState<string | null>(null);
  const { actions, dialogs } = useFileOperations({
    onCreated: (path, type) => {
      setSelected(path);
      if (type === 'file') void openFile(path);
    },
  });
  const tree = structure.data?.tree;

  let body;
  if (structure.isPending) body = <TreeSkeleton />;
  else if (structure.isError && !tree) {
    body = (
      <div role="alert" className="flex flex-col items-start gap-2 p-3 text-sm">
        <p className="font-medium">{UI_TEXT.filesLoadErrorTitle}</p>
        <p className="text-xs text-muted-foreground">{UI_TEXT.filesLoadErrorBody}</p>
        <Button variant="outline" size="sm" onClick={() => void structure.refetch()}>
          <RotateCw />
          Try again
        </Button>
      </div>
    );
  } else if (!tree || tree.length === 0) {
    body = (
      <div className="flex flex-col items-center gap-1.5 px-3 py-6 text-center text-sm text-muted-foreground">
        <FolderTree aria-hidden="true" className="size-5" />
        <p>{UI_TEXT.noProjectFiles}</p>
        <p className="text-xs">Upload a project ZIP, or create a file with the + above.</p>
      </div>
    );
  } else {
    body = (
      <FileTree
        tree={tree}
        label="Project files"
        highlighted={highlighted}
        selectedPath={selected}
        onSelect={(node) => setSelected(node.path)}
        onOpen={(node) => {
          setSelected(node.path);
          void openFile(node.path);
        }}
        actions={actions}
      />
    );
  }

  return (
    <section aria-label="File structure" className="flex h-full min-h-0 flex-col">
      <div className="flex h-8 shrink-0 items-center gap-1 border-b px-2">
        <h2 className="min-w-0 flex-1 truncate text-xs font-medium text-muted-foreground">
          {structure.data?.projectName ?? 'File Structure'}
        </h2>
        <PanelIconButton label="New File" onClick={() => actions.create('file', '')}>
          <FilePlus />
        </PanelIconButton>
        <PanelIconButton label="New Folder" onClick={() => actions.create('folder', '')}>
          <FolderPlus />
        </PanelIconButton>
        <PanelIconButton
          label="Refresh files"
          disabled={structure.isFetching}
          onClick={() => void structure.refetch()}
        >
          <RotateCw className={structure.isFetching ? 'animate-spin' : undefined} />
        </PanelIconButton>
      </div>
      <ScrollArea className="min-h-0 flex-1">{body}</ScrollArea>
      {dialogs}
    </section>
  );
}
