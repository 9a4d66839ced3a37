import { useEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { FileArchive } from 'lucide-react';
import { cn } from '@/lib/utils.ts';
import { useProjectUpload } from '../upload-context.tsx';

const hasFiles = (event: DragEvent): boolean => Array.from(event.dataTransfer.types).includes('Files');

/**
 * Makes everything inside accept a dropped project ZIP (spec: the dashboard is one big drop area).
 * While files are dragged over it, a veil covers the content, so the drop cannot land in the preview
 * frame or the editor. A region that wants its own drops (the extension manager) sits above the
 * veil with `data-drop-scope` and handles them itself.
 */
export function DashboardDropTarget({ children, className }: { children: ReactNode; className?: string }) {
  const { upload, state } = useProjectUpload();
  const [dragging, setDragging] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  // A drag that ends anywhere else (dropped outside, cancelled with Escape) must not leave the veil up.
  useEffect(() => {
    if (!dragging) return;
    const reset = () => setDragging(false);
    window.addEventListener('dragend', reset);
    window.addEventListener('drop', reset);
    return () => {
      window.removeEventListener('dragend', reset);
      window.removeEventListener('drop', reset);
    };
  }, [dragging]);

  const onDragEnter = (event: DragEvent) => {
    if (hasFiles(event)) setDragging(true);
  };
  const onDragOver = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = state.phase === 'idle' ? 'copy' : 'none';
  };
  const onDragLeave = (event: DragEvent) => {
    const next = event.relatedTarget as Node | null;
    if (!next || !root.current?.contains(next)) setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) upload(file);
  };

  return (
    <div
      ref={root}
      data-dragging={dragging || undefined}
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      className={cn('group/drop relative', className)}
    >
      {children}
      <div
        aria-hidden="true"
        className={cn(
          'absolute inset-0 z-40 items-center justify-center border-2 border-dashed border-brand/60 bg-background/80',
          dragging ? 'flex' : 'hidden',
        )}
      >
        <div className="flex flex-col items-center gap-2 rounded-lg bg-popover px-6 py-4 text-sm shadow-lg">
          <FileArchive className="size-6 text-brand" />
          <span className="font-medium">Drop the project ZIP to upload it</span>
        </div>
      </div>
    </div>
  );
}
