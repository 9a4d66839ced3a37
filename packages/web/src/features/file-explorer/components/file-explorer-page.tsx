import { FolderTree } from 'lucide-react';
import { UI_TEXT } from '@forge/shared';
import { EmptyState, Mono, PageFrame } from '@/components/layout/page.tsx';

export function FileExplorerPage() {
  return (
    <PageFrame title="File Explorer" description="Browse and read the files of the current project.">
      <EmptyState icon={FolderTree} title={UI_TEXT.noProjectFiles}>
        Upload a project (<Mono>forge upload app.zip</Mono>) and its tree appears here, with file sizes and a
        line-numbered view of the file you open.
      </EmptyState>
    </PageFrame>
  );
}
