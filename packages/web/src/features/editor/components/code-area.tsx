import { Suspense, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { Code2, FilePlus, Save, WandSparkles } from 'lucide-react';
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
import { Button } from '@/components/ui/button.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { NameDialog } from '@/features/files/components/name-dialog.tsx';
import { PanelIconButton } from '@/features/files/components/panel-parts.tsx';
import { CodeEditorContext, type CodeEditorHandle } from '../code-editor.tsx';
import {
  activeTab,
  canCloseTab,
  closeTab,
  editTab,
  isDirty,
  selectTab,
  type EditorTab,
} from '../editor-state.ts';
import { useEditorStore, useWorkspace } from '../editor-store.tsx';
import { isFormatShortcut, isSaveShortcut } from '../shortcuts.ts';
import { useEditorActions } from '../use-editor-actions.ts';
import { useEditorSync } from '../use-editor-sync.ts';
import { EditorLoading } from './editor-loading.tsx';
import { EditorTabs } from './editor-tabs.tsx';

/** Monaco model per tab; it ends in the file name so the language service knows .tsx from .ts. */
const modelPath = (tab: EditorTab) => `inmemory://forge/${tab.id}/${tab.path ?? tab.name}`;

/** Edits that closing would lose (an untitled tab nobody typed in loses nothing). */
const hasEdits = (tab: EditorTab) => tab.content !== tab.savedContent;

/**
 * The dashboard's code area (docs/product.md#code-area): tabs of open files, a New file button, Monaco
 * (loaded on first use), Ctrl/Cmd+S to save and Ctrl/Cmd+Shift+F to format. Opens the project's starter files
 * first; the file tree opens more with a double-click.
 */
export function CodeArea() {
  useEditorSync();
  const store = useEditorStore();
  const { key, newFile, save } = useEditorActions();
  const workspace = useWorkspace(key);
  const Editor = useContext(CodeEditorContext);
  const { toast } = useToast();
  const areaRef = useRef<HTMLElement>(null);
  const editorHandle = useRef<CodeEditorHandle | null>(null);
  const [saveAsId, setSaveAsId] = useState<string | null>(null);
  const [closingId, setClosingId] = useState<string | null>(null);

  const active = activeTab(workspace);
  const modelKey = workspace.tabs.map(modelPath).join('\0');
  const openModelPaths = useMemo(() => (modelKey ? modelKey.split('\0') : []), [modelKey]);
  const closing = workspace.tabs.find((t) => t.id === closingId);
  const savingAs = workspace.tabs.find((t) => t.id === saveAsId);

  const saveTab = async (id: string) => {
    if ((await save(id)) === 'needs-path') setSaveAsId(id);
  };

  const format = async () => {
    const handle = editorHandle.current;
    if (!handle) return;
    reportFormat(await handle.format());
  };
  const reportFormat = (formatted: boolean) => {
    if (!formatted && active)
      toast({ title: `No formatter for ${active.language}`, description: active.name });
  };

  const requestClose = (id: string) => {
    const tab = workspace.tabs.find((t) => t.id === id);
    if (!tab || !canCloseTab(workspace)) return;
    if (hasEdits(tab)) setClosingId(id);
    else store.update(key, (ws) => closeTab(ws, id));
  };

  // docs/product.md#code-area: Ctrl/Cmd+S saves and the browser's Save dialog never opens while the code area
  // has focus (tabs, buttons or editor). Inside Monaco its own command runs first and marks the event
  // handled; this catches the rest.
  const latest = useRef({ saveTab, format, activeId: active?.id });
  useEffect(() => {
    latest.current = { saveTab, format, activeId: active?.id };
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const area = areaRef.current;
      if (!area || !area.contains(document.activeElement)) return;
      if (isSaveShortcut(event)) {
        event.preventDefault();
        const id = latest.current.activeId;
        if (id) void latest.current.saveTab(id);
      } else if (isFormatShortcut(event)) {
        event.preventDefault();
        void latest.current.format();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  let body;
  if (active) {
    body = (
      <Suspense fallback={<EditorLoading />}>
        <Editor
          modelPath={modelPath(active)}
          value={active.content}
          language={active.language}
          label={`Editing ${active.path ?? active.name}`}
          onChange={(value) => {
            const id = active.id;
            store.update(key, (ws) => editTab(ws, id, value));
          }}
          onSave={() => void saveTab(active.id)}
          onFormatted={reportFormat}
          openModelPaths={openModelPaths}
          reveal={active.reveal}
          handleRef={(handle) => {
            editorHandle.current = handle;
          }}
        />
      </Suspense>
    );
  } else if (workspace.status !== 'ready') {
    body = <EditorLoading text="Loading project files" />;
  } else {
    body = (
      <div className="flex h-full flex-col items-center justify-center gap-2 p-4 text-center">
        <Code2 aria-hidden="true" className="size-6 text-muted-foreground" />
        <h3 className="text-sm font-medium">Code Editor Ready</h3>
        <p className="max-w-xs text-xs text-muted-foreground">
          Double-click a file in the file structure to open it here, or start a new one.
        </p>
        <Button variant="outline" size="sm" onClick={newFile}>
          <FilePlus />
          New file
        </Button>
      </div>
    );
  }

  return (
    <section ref={areaRef} aria-label="Code editor" className="flex h-full min-h-0 flex-col">
      <div className="flex h-8 shrink-0 items-stretch border-b bg-muted/40">
        <EditorTabs
          tabs={workspace.tabs}
          activeId={active?.id ?? null}
          canClose={canCloseTab(workspace)}
          onSelect={(id) => store.update(key, (ws) => selectTab(ws, id))}
          onClose={requestClose}
        />
        <div className="flex shrink-0 items-center gap-0.5 border-l px-1">
          <PanelIconButton label="New file" onClick={newFile}>
            <FilePlus />
          </PanelIconButton>
          <PanelIconButton
            label="Save (Ctrl+S)"
            disabled={!active || !isDirty(active)}
            onClick={() => active && void saveTab(active.id)}
          >
            <Save />
          </PanelIconButton>
          <PanelIconButton label="Format (Ctrl+Shift+F)" disabled={!active} onClick={() => void format()}>
            <WandSparkles />
          </PanelIconButton>
        </div>
      </div>
      <div className="min-h-0 flex-1">{body}</div>

      <NameDialog
        open={savingAs !== undefined}
        title={`Save ${savingAs?.name ?? 'file'}`}
        description="Path of the new file, from the project root."
        fieldLabel="File path"
        placeholder="client/src/new-file.tsx"
        allowFolders
        submitLabel="Create"
        onSubmit={(path) => {
          const id = saveAsId;
          setSaveAsId(null);
          if (id) void save(id, path);
        }}
        onCancel={() => setSaveAsId(null)}
      />

      <AlertDialog
        open={closing !== undefined}
        onOpenChange={(open) => (open ? undefined : setClosingId(null))}
      >
        {closing ? (
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Close {closing.name} without saving?</AlertDialogTitle>
              <AlertDialogDescription>Your unsaved changes to this file will be lost.</AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Keep editing</AlertDialogCancel>
              <AlertDialogAction
                variant="destructive"
                onClick={() => store.update(key, (ws) => closeTab(ws, closing.id))}
              >
                Close without saving
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        ) : null}
      </AlertDialog>
    </section>
  );
}
