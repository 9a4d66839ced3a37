import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, FilePlus, FileText, FolderTree, RotateCw, Save, TriangleAlert } from 'lucide-react';
import type { FileNode } from '@forge/shared';
import { UI_TEXT, formatBytes } from '@forge/shared/schema-free';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { ScrollArea } from '@/components/ui/scroll-area.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { EmptyState, PageFrame } from '@/components/layout/page.tsx';
import { routeQuery } from '@/lib/query-client.ts';
import { useSocketMessages } from '@/lib/socket.tsx';
import { FileTree } from '@/features/files/components/file-tree.tsx';
import { TreeSkeleton } from '@/features/files/components/panel-parts.tsx';
import { failureReason, saveFile } from '@/features/files/queries.ts';
import { fileIcon } from '@/features/files/file-icons.ts';
import { findNode, isWithin, movedPath, parentPath } from '@/features/files/tree.ts';
import { useFileOperations } from '@/features/files/use-file-operations.tsx';
import { useLiveFileTree } from '@/features/files/use-live-file-tree.ts';
import { LineNumberedEditor } from './line-numbered-editor.tsx';

const contentQuery = (path: string, project: string | undefined) =>
  routeQuery('fileContent', { query: { path, project } });
const contentQueryKey = (path: string, project: string | undefined) => contentQuery(path, project).queryKey;

/** Hand `text` to the browser as a download named `name`. */
function downloadText(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next task: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The File Explorer screen (docs/product.md#file-tree-and-explorer): the project tree with sizes and icons,
 * the selected file in a line-numbered view that can be edited, and New / Refresh / Save / Download that do
 * what they say.
 */
export function FileExplorerPage() {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const { structure, highlighted, project } = useLiveFileTree();
  const [selectedPath, setSelectedPath] = useState<string | null>(null);
  /** Unsaved edits per file, so moving between files loses nothing. */
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const tree = structure.data?.tree;
  const selected = selectedPath ? findNode(tree, selectedPath) : undefined;
  const file = selected?.type === 'file' ? selected : undefined;

  const content = useQuery({
    ...contentQuery(file?.path ?? '', project),
    enabled: file !== undefined,
    // Always re-read a file when it is selected again: it may have changed on disk meanwhile.
    staleTime: 0,
  });

  const setDraft = (path: string, text: string | undefined) =>
    setDrafts(({ [path]: _old, ...rest }) => (text === undefined ? rest : { ...rest, [path]: text }));

  const { actions, dialogs } = useFileOperations({
    onCreated: (path) => setSelectedPath(path),
    onRenamed: (from, to) => {
      setSelectedPath((current) =>
        current && isWithin(current, from) ? movedPath(current, from, to) : current,
      );
      setDrafts((current) =>
        Object.fromEntries(Object.entries(current).map(([path, text]) => [movedPath(path, from, to), text])),
      );
    },
    onDeleted: (path) => {
      setSelectedPath((current) => (current && isWithin(current, path) ? null : current));
      setDrafts((current) => Object.fromEntries(Object.entries(current).filter(([p]) => !isWithin(p, path))));
    },
  });

  // A file changed on disk: show the new text unless there are edits here, which are kept.
  useSocketMessages((message) => {
    if (message.type !== 'file-content-updated') return;
    if (message.projectName !== undefined && project !== undefined && message.projectName !== project) return;
    const key = contentQueryKey(message.filePath, project);
    if (!queryClient.getQueryData(key)) return;
    queryClient.setQueryData(key, { path: message.filePath, content: message.content });
    const draft = drafts[message.filePath];
    if (draft !== undefined && draft !== message.content && message.filePath === file?.path) {
      toast({
        title: `${file.name} changed on disk`,
        description: 'Your unsaved edits are kept. Saving will replace the version on disk.',
      });
    }
  });

  const saved = content.data?.content;
  const draft = file ? drafts[file.path] : undefined;
  const text = draft ?? saved ?? '';
  const dirty = draft !== undefined && draft !== saved;

  const save = async () => {
    if (!file || saved === undefined || saving) return;
    const path = file.path;
    setSaving(true);
    try {
      await saveFile(path, text, project);
      queryClient.setQueryData(contentQueryKey(path, project), { path, content: text });
      // Whatever was typed while the save ran stays a draft; otherwise the draft is now on disk.
      setDrafts((current) => {
        if (current[path] !== text) return current;
        const { [path]: _saved, ...rest } = current;
        return rest;
      });
      toast({ title: UI_TEXT.fileSaved, description: path });
    } catch (error) {
      toast({ title: UI_TEXT.saveFailed, description: failureReason(error), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  const refresh = () => {
    void structure.refetch();
    if (file && !dirty) void content.refetch();
  };

  /** New files go into the selected folder, or next to the selected file. */
  const newFileParent = selected
    ? selected.type === 'folder'
      ? selected.path
      : parentPath(selected.path)
    : '';

  const actionsBar = (
    <>
      <Button variant="outline" size="sm" onClick={() => actions.create('file', newFileParent)}>
        <FilePlus />
        New
      </Button>
      <Button variant="outline" size="sm" disabled={structure.isFetching} onClick={refresh}>
        <RotateCw className={structure.isFetching ? 'animate-spin' : undefined} />
        Refresh
      </Button>
      <Button variant="outline" size="sm" disabled={!file || !dirty || saving} onClick={() => void save()}>
        <Save />
        Save
      </Button>
      <Button
        variant="outline"
        size="sm"
        disabled={!file || saved === undefined}
        onClick={() => file && downloadText(file.name, text)}
      >
        <Download />
        Download
      </Button>
    </>
  );

  return (
    <PageFrame
      title="File Explorer"
      description={
        structure.data?.projectName
          ? `Browse, edit and download the files of ${structure.data.projectName}.`
          : 'Browse, edit and download the files of the current project.'
      }
      actions={actionsBar}
      className="max-w-none"
    >
      <div className="grid h-[calc(100dvh-11rem)] min-h-96 gap-3 md:grid-cols-[minmax(14rem,20rem)_minmax(0,1fr)]">
        <Card className="min-h-0 overflow-hidden">
          <ScrollArea className="h-full">
            {structure.isPending ? (
              <TreeSkeleton />
            ) : !tree || tree.length === 0 ? (
              <EmptyState
                icon={FolderTree}
                title={structure.isError ? UI_TEXT.filesLoadErrorTitle : UI_TEXT.noProjectFiles}
                className="m-3 border-0"
              >
                {structure.isError
                  ? UI_TEXT.filesLoadErrorBody
                  : 'Upload a project ZIP, or create a file with New.'}
              </EmptyState>
            ) : (
              <FileTree
                tree={tree}
                label="Project files"
                showSizes
                highlighted={highlighted}
                selectedPath={selectedPath}
                onSelect={(node: FileNode) => setSelectedPath(node.path)}
                onOpen={(node: FileNode) => setSelectedPath(node.path)}
                actions={actions}
              />
            )}
          </ScrollArea>
        </Card>

        <Card className="min-h-0 overflow-hidden" aria-label="File content">
          <FileView
            file={file}
            text={text}
            dirty={dirty}
            loading={content.isPending && file !== undefined}
            error={content.isError ? failureReason(content.error) : undefined}
            onChange={(next) => file && setDraft(file.path, next === saved ? undefined : next)}
            onSave={() => void save()}
          />
        </Card>
      </div>
      {dialogs}
    </PageFrame>
  );
}

function FileView({
  file,
  text,
  dirty,
  loading,
  error,
  onChange,
  onSave,
}: {
  file: FileNode | undefined;
  text: string;
  dirty: boolean;
  loading: boolean;
  error: string | undefined;
  onChange: (text: string) => void;
  onSave: () => void;
}) {
  if (!file) {
    return (
      <EmptyState icon={FileText} title="No file selected" className="m-3 h-[calc(100%-1.5rem)] border-0">
        Click a file in the tree to read and edit it here.
      </EmptyState>
    );
  }
  const Icon = fileIcon(file.path);
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex h-9 shrink-0 items-center gap-2 border-b px-3 text-xs">
        <Icon aria-hidden="true" className="size-4 text-muted-foreground" />
        <span className="min-w-0 truncate font-mono">{file.path}</span>
        {dirty ? (
          <span className="inline-flex items-center gap-1 text-muted-foreground">
            <span aria-hidden="true" className="size-1.5 rounded-full bg-brand" />
            unsaved
          </span>
        ) : null}
        {file.size !== undefined ? (
          <span className="ml-auto shrink-0 text-muted-foreground tabular-nums">
            {formatBytes(file.size)}
          </span>
        ) : null}
      </div>
      {loading ? (
        <div className="flex flex-col gap-2 p-3" aria-busy="true">
          <Skeleton className="h-3 w-2/3" />
          <Skeleton className="h-3 w-1/2" />
          <Skeleton className="h-3 w-3/5" />
        </div>
      ) : error ? (
        <EmptyState icon={TriangleAlert} title={UI_TEXT.fileLoadError} role="alert" className="m-3 border-0">
          {error}
        </EmptyState>
      ) : (
        <LineNumberedEditor
          className="flex-1"
          label={`Content of ${file.path}`}
          value={text}
          onChange={onChange}
          onSave={onSave}
        />
      )}
    </div>
  );
}
