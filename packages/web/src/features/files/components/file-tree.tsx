import { useMemo, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { ChevronRight, FilePlus, FolderPlus, Pencil, Trash2 } from 'lucide-react';
import type { FileNode } from '@forge/shared';
import { formatBytes } from '@forge/shared/schema-free';
import {
  ContextMenu,
  ContextMenuContent,
  ContextMenuItem,
  ContextMenuSeparator,
  ContextMenuShortcut,
  ContextMenuTrigger,
} from '@/components/ui/context-menu.tsx';
import { cn } from '@/lib/utils.ts';
import { fileIcon } from '../file-icons.ts';
import { parentPath, sortTree, treeIndentPx, visibleRows } from '../tree.ts';
import type { FileActions } from '../use-file-operations.tsx';

/** Padding before the first level's chevron; the tree indent (12 px a level, 48 max) adds to it. */
const ROW_BASE_PADDING_PX = 6;

export interface FileTreeProps {
  /** The project's tree as the daemon sends it (sorted here: folders first). */
  tree: readonly FileNode[];
  /** Accessible name of the tree. */
  label: string;
  /** Paths lit up because they just changed. */
  highlighted?: ReadonlySet<string>;
  selectedPath?: string | null;
  /** A click on a file (or Space on it). */
  onSelect?: (node: FileNode) => void;
  /** A double-click on a file (or Enter on it). */
  onOpen?: (node: FileNode) => void;
  /** Show each file's size (the explorer screen). */
  showSizes?: boolean;
  actions: FileActions;
  className?: string;
}

/**
 * The project tree (docs/product.md#file-tree-and-explorer): folders expand on click, files open on
 * double-click, a context menu with New File, New Folder, Rename and Delete. Keyboard: arrows move and
 * expand, Enter opens, F2 renames, Delete deletes, the Menu key (or Shift+F10) opens the context menu.
 */
export function FileTree({
  tree,
  label,
  highlighted,
  selectedPath,
  onSelect,
  onOpen,
  showSizes = false,
  actions,
  className,
}: FileTreeProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [focusedPath, setFocusedPath] = useState<string | null>(null);
  /** The node the context menu is about; null means the project root (right-click on empty space). */
  const [menuTarget, setMenuTarget] = useState<FileNode | null>(null);

  const sorted = useMemo(() => sortTree(tree), [tree]);
  const rows = useMemo(() => visibleRows(sorted, expanded), [sorted, expanded]);
  const tabStop = rows.some((r) => r.node.path === focusedPath) ? focusedPath : (rows[0]?.node.path ?? null);

  const toggle = (path: string, open?: boolean) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (open ?? !next.has(path)) next.add(path);
      else next.delete(path);
      return next;
    });

  const focusRow = (element: HTMLElement, offset: number) => {
    const items = [
      ...(element.closest('[role="tree"]')?.querySelectorAll<HTMLElement>('[role="treeitem"]') ?? []),
    ];
    const target = items[items.indexOf(element) + offset];
    target?.focus();
  };

  const onRowClick = (event: MouseEvent, node: FileNode) => {
    setFocusedPath(node.path);
    if (node.type === 'folder') {
      // The second click of a double-click would fold the folder straight back.
      if (event.detail <= 1) toggle(node.path);
      return;
    }
    onSelect?.(node);
  };

  const onRowKeyDown = (event: KeyboardEvent<HTMLElement>, node: FileNode) => {
    const folder = node.type === 'folder';
    const open = expanded.has(node.path);
    switch (event.key) {
      case 'Enter':
        if (folder) toggle(node.path);
        else onOpen?.(node);
        break;
      case ' ':
        if (folder) toggle(node.path);
        else onSelect?.(node);
        break;
      case 'ArrowDown':
        focusRow(event.currentTarget, 1);
        break;
      case 'ArrowUp':
        focusRow(event.currentTarget, -1);
        break;
      case 'ArrowRight':
        if (folder && !open) toggle(node.path, true);
        else if (folder) focusRow(event.currentTarget, 1);
        break;
      case 'ArrowLeft':
        if (folder && open) toggle(node.path, false);
        else {
          const parent = parentPath(node.path);
          if (parent) {
            event.currentTarget
              .closest('[role="tree"]')
              ?.querySelector<HTMLElement>(`[role="treeitem"][data-path="${CSS.escape(parent)}"]`)
              ?.focus();
          }
        }
        break;
      case 'F2':
        actions.rename(node);
        break;
      case 'Delete':
        actions.remove(node);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  /** Where New File / New Folder put things: inside a folder, next to a file, else at the root. */
  const createIn = (target: FileNode | null) =>
    target ? (target.type === 'folder' ? target.path : parentPath(target.path)) : '';

  const create = (type: 'file' | 'folder') => {
    const parent = createIn(menuTarget);
    if (parent) toggle(parent, true);
    actions.create(type, parent);
  };

  return (
    // Not modal: a dialog opened from an item would otherwise inherit the menu's pointer lock on <body>.
    <ContextMenu modal={false}>
      <ContextMenuTrigger asChild>
        <div
          role="tree"
          aria-label={label}
          className={cn('flex min-h-full flex-col py-1 text-sm select-none', className)}
          // Capture runs before a row's own handler: empty space means the root, a row overrides it.
          onContextMenuCapture={() => setMenuTarget(null)}
        >
          {rows.map(({ node, depth }) => {
            const folder = node.type === 'folder';
            const open = folder && expanded.has(node.path);
            const folded = folder && node.folded !== undefined;
            const Icon = fileIcon(node.path, node.type, open);
            const lit = highlighted?.has(node.path) ?? false;
            const selected = node.path === selectedPath;
            return (
              <div
                key={node.path}
                role="treeitem"
                aria-level={depth + 1}
                aria-expanded={folder && !folded ? open : undefined}
                aria-selected={selected}
                data-path={node.path}
                data-highlighted={lit ? '' : undefined}
                tabIndex={node.path === tabStop ? 0 : -1}
                title={node.path}
                style={{ paddingLeft: ROW_BASE_PADDING_PX + treeIndentPx(depth) }}
                className={cn(
                  'flex h-6 shrink-0 cursor-pointer items-center gap-1 pr-2 transition-colors duration-300 outline-none hover:bg-accent/60 focus-visible:ring-1 focus-visible:ring-ring focus-visible:ring-inset',
                  selected && 'bg-accent text-accent-foreground',
                  lit && 'bg-brand/15 text-foreground',
                )}
                onClick={(e) => onRowClick(e, node)}
                onDoubleClick={() => (folder ? undefined : onOpen?.(node))}
                onKeyDown={(e) => onRowKeyDown(e, node)}
                onFocus={() => setFocusedPath(node.path)}
                onContextMenu={() => setMenuTarget(node)}
              >
                <ChevronRight
                  aria-hidden="true"
                  className={cn(
                    'size-3.5 shrink-0 text-muted-foreground transition-transform',
                    open && 'rotate-90',
                    (!folder || folded) && 'invisible',
                  )}
                />
                <Icon
                  aria-hidden="true"
                  className={cn('size-4 shrink-0', folder ? 'text-brand/80' : 'text-muted-foreground')}
                />
                <span className={cn('min-w-0 flex-1 truncate', folded && 'text-muted-foreground')}>
                  {node.name}
                </span>
                {folded ? (
                  <span className="shrink-0 text-[11px] text-muted-foreground italic">
                    {node.folded === 'ignored' ? 'not listed' : 'too many files to list'}
                  </span>
                ) : null}
                {lit ? <span className="sr-only">(changed)</span> : null}
                {showSizes && !folder && node.size !== undefined ? (
                  <span className="shrink-0 font-mono text-[11px] text-muted-foreground tabular-nums">
                    {formatBytes(node.size)}
                  </span>
                ) : null}
              </div>
            );
          })}
        </div>
      </ContextMenuTrigger>
      <ContextMenuContent>
        <ContextMenuItem onSelect={() => create('file')}>
          <FilePlus />
          New File
        </ContextMenuItem>
        <ContextMenuItem onSelect={() => create('folder')}>
          <FolderPlus />
          New Folder
        </ContextMenuItem>
        <ContextMenuSeparator />
        <ContextMenuItem disabled={!menuTarget} onSelect={() => menuTarget && actions.rename(menuTarget)}>
          <Pencil />
          Rename
          <ContextMenuShortcut>F2</ContextMenuShortcut>
        </ContextMenuItem>
        <ContextMenuItem
          variant="destructive"
          disabled={!menuTarget}
          onSelect={() => menuTarget && actions.remove(menuTarget)}
        >
          <Trash2 />
          Delete
          <ContextMenuShortcut>Del</ContextMenuShortcut>
        </ContextMenuItem>
      </ContextMenuContent>
    </ContextMenu>
  );
}
