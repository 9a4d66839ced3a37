import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { UI_TEXT } from '@forge/shared/schema-free';
import { useSocketMessages } from '@/lib/socket.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { fileStructureQueryKey, useFileProject, useFileStructure } from './queries.ts';
import { changedFilePaths } from './tree.ts';
import { useHighlights } from './use-highlights.ts';

/**
 * The current project's tree, kept live: polled every 30 s, replaced by every pushed
 * `project-files-updated`, with files that changed lit for 3 s. A failed load says so once
 * (docs/product.md#error-texts "Error loading files - Unable to load project files. Please try again.").
 */
export function useLiveFileTree() {
  const queryClient = useQueryClient();
  const { project } = useFileProject();
  const structure = useFileStructure();
  const { highlighted, highlight } = useHighlights();
  const { toast } = useToast();

  useSocketMessages((message) => {
    if (message.type !== 'project-files-updated' && message.type !== 'file-content-updated') return;
    const key = fileStructureQueryKey(project);
    // A push names its project; one about another project is not ours. One that names none is about
    // the daemon's current project, which is ours only if we asked for no project in particular.
    const ours =
      message.projectName === undefined
        ? project === undefined
        : project === undefined || message.projectName === project;
    if (!ours) {
      if (message.projectName === undefined) void queryClient.invalidateQueries({ queryKey: key });
      return;
    }
    if (message.type === 'file-content-updated') {
      highlight([message.filePath]);
      return;
    }
    const previous = queryClient.getQueryData(key);
    highlight(changedFilePaths(previous?.tree, message.fileStructure));
    queryClient.setQueryData(key, {
      projectName: message.projectName ?? previous?.projectName ?? project ?? '',
      tree: message.fileStructure,
    });
  });

  const failed = structure.isError;
  useEffect(() => {
    if (failed) {
      toast({
        title: UI_TEXT.filesLoadErrorTitle,
        description: UI_TEXT.filesLoadErrorBody,
        variant: 'destructive',
      });
    }
  }, [failed, toast]);

  return { structure, highlighted, highlight, project };
}
