import { useEffect, useRef, type KeyboardEvent } from 'react';
import { X } from 'lucide-react';
import { cn } from '@/lib/utils.ts';
import { fileIcon } from '@/features/files/file-icons.ts';
import { isDirty, type EditorTab } from '../editor-state.ts';

/**
 * One tab per open file. Clicking selects; the ✕ shows only while more than one tab is open
 * (docs/product.md#code-area). An unsaved tab carries a dot and says "unsaved" to screen readers.
 */
export function EditorTabs({
  tabs,
  activeId,
  canClose,
  onSelect,
  onClose,
}: {
  tabs: readonly EditorTab[];
  activeId: string | null;
  canClose: boolean;
  onSelect: (id: string) => void;
  onClose: (id: string) => void;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  // A tab opened from the tree may sit past the edge of a narrow panel: scroll the tab strip (only
  // sideways; the page itself stays where the user left it) until the active tab shows.
  useEffect(() => {
    const list = listRef.current;
    const tab = list?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.parentElement;
    if (!list || !tab) return;
    if (tab.offsetLeft < list.scrollLeft) list.scrollLeft = tab.offsetLeft;
    else if (tab.offsetLeft + tab.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = tab.offsetLeft + tab.offsetWidth - list.clientWidth;
    }
  }, [activeId, tabs.length]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = tabs[(index + step + tabs.length) % tabs.length];
    if (!next) return;
    onSelect(next.id);
    event.currentTarget
      .closest('[role="tablist"]')
      ?.querySelector<HTMLElement>(`[role="tab"][data-tab-id="${next.id}"]`)
      ?.focus();
  };

  return (
    <div
      ref={listRef}
      role="tablist"
      aria-label="Open files"
      className="relative flex min-w-0 flex-1 items-stretch overflow-x-auto [scrollbar-width:thin]"
    >
      {tabs.map((tab, index) => {
        const active = tab.id === activeId;
        const dirty = isDirty(tab);
        const Icon = fileIcon(tab.path ?? tab.name);
        return (
          <div
            key={tab.id}
            className={cn(
              'group flex shrink-0 items-center border-r text-xs',
              active ? 'bg-background text-foreground' : 'text-muted-foreground hover:bg-accent/50',
            )}
          >
            <button
              type="button"
              role="tab"
              data-tab-id={tab.id}
              aria-selected={active}
              tabIndex={active ? 0 : -1}
              title={tab.path ?? `${tab.name} (not saved yet)`}
              className="flex h-8 items-center gap-1.5 pr-1 pl-2.5 outline-none focus-visible:ring-1 focus-visible:ring-ring focus-visible:ring-inset"
              onClick={() => onSelect(tab.id)}
              onKeyDown={(e) => onKeyDown(e, index)}
            >
              <Icon aria-hidden="true" className="size-3.5 shrink-0" />
              <span className={cn('max-w-40 truncate', !tab.path && 'italic')}>{tab.name}</span>
              {dirty ? (
                <span
                  data-testid="dirty-marker"
                  aria-hidden="true"
                  className="size-1.5 rounded-full bg-brand"
                />
              ) : null}
              {dirty ? <span className="sr-only">(unsaved)</span> : null}
            </button>
            {canClose ? (
              <button
                type="button"
                aria-label={`Close ${tab.name}`}
                title={`Close ${tab.name}`}
                className={cn(
                  'mr-1 rounded-sm p-0.5 text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-1 focus-visible:ring-ring',
                  !active && 'opacity-0 group-hover:opacity-100 focus-visible:opacity-100',
                )}
                onClick={() => onClose(tab.id)}
              >
                <X className="size-3" />
              </button>
            ) : (
              <span className="w-1.5" />
            )}
          </div>
        );
      })}
    </div>
  );
}
