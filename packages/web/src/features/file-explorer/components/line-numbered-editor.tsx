import { useMemo, type KeyboardEvent } from 'react';
import { EDITOR } from '@forge/shared/schema-free';
import { cn } from '@/lib/utils.ts';
import { isSaveShortcut } from '@/features/editor/shortcuts.ts';

/** Line height in px of the view (Tailwind leading-5); the textarea is sized from it. */
const LINE_PX = 20;
const PADDING_Y_PX = 8;

/**
 * A plain, line-numbered text view that can be edited (docs/product.md#file-tree-and-explorer "line-numbered
 * content view"). One scroll container moves the numbers and the text together; the textarea is as tall and
 * as wide as its text, so it never scrolls on its own and the numbers always line up.
 */
export function LineNumberedEditor({
  value,
  onChange,
  onSave,
  label,
  className,
}: {
  value: string;
  onChange: (value: string) => void;
  /** Ctrl/Cmd+S in the view. */
  onSave?: () => void;
  label: string;
  className?: string;
}) {
  const { numbers, lineCount, longest } = useMemo(() => {
    const lines = value.split('\n');
    return {
      numbers: lines.map((_, i) => i + 1).join('\n'),
      lineCount: lines.length,
      longest: lines.reduce((max, line) => Math.max(max, line.length), 0),
    };
  }, [value]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (onSave && isSaveShortcut(event)) {
      event.preventDefault();
      onSave();
    }
  };

  return (
    <div className={cn('flex min-h-0 overflow-auto bg-background font-mono text-xs leading-5', className)}>
      <pre
        aria-hidden="true"
        data-testid="line-numbers"
        className="sticky left-0 z-10 m-0 shrink-0 border-r bg-muted/60 px-2 text-right text-muted-foreground tabular-nums select-none"
        style={{ paddingTop: PADDING_Y_PX, paddingBottom: PADDING_Y_PX, minHeight: '100%' }}
      >
        {numbers}
      </pre>
      <textarea
        aria-label={label}
        value={value}
        wrap="off"
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        className="block min-w-0 flex-1 resize-none overflow-hidden bg-transparent px-3 whitespace-pre text-foreground outline-none"
        style={{
          height: lineCount * LINE_PX + 2 * PADDING_Y_PX,
          minWidth: `calc(${longest + 2}ch + 1.5rem)`,
          paddingTop: PADDING_Y_PX,
          paddingBottom: PADDING_Y_PX,
          tabSize: EDITOR.tabSize,
        }}
      />
    </div>
  );
}
