import { LoaderCircle } from 'lucide-react';

/**
 * Spinner with a line of text (docs/product.md#code-area "Loading project files"; the editor uses it while
 * Monaco loads).
 */
export function EditorLoading({ text = 'Loading editor' }: { text?: string }) {
  return (
    <div
      role="status"
      className="flex h-full min-h-24 items-center justify-center gap-2 text-sm text-muted-foreground"
    >
      <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
      {text}
    </div>
  );
}
