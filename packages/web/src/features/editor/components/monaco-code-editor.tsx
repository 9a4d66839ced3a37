import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import Editor, { type OnMount } from '@monaco-editor/react';
import { EDITOR } from '@forge/shared/schema-free';
import { monaco } from '../monaco-setup.ts';
import type { CodeEditorHandle, CodeEditorProps } from '../code-editor-types.ts';
import { EditorLoading } from './editor-loading.tsx';

type StandaloneEditor = Parameters<OnMount>[0];

/** Models of the code area's tabs live under this URI prefix (see modelPath in code-area.tsx). */
const MODEL_PREFIX = 'inmemory://forge/';

/** docs/product.md#constants: font size 14, tab size 2, word wrap on, minimap on. */
const OPTIONS = {
  fontSize: EDITOR.fontSize,
  tabSize: EDITOR.tabSize,
  wordWrap: EDITOR.wordWrap,
  minimap: { enabled: EDITOR.minimap },
  automaticLayout: true,
  scrollBeyondLastLine: false,
  // Suggestion and hover widgets may overflow the panel instead of being clipped by it.
  fixedOverflowWidgets: true,
  fontFamily: "ui-monospace, 'JetBrains Mono', 'SF Mono', 'Cascadia Code', Menlo, Consolas, monospace",
  renderLineHighlight: 'line',
  padding: { top: 8 },
} as const;

const darkQuery = () => window.matchMedia?.('(prefers-color-scheme: dark)');
const subscribeScheme = (onChange: () => void) => {
  const query = darkQuery();
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
};
/**
 * The app follows the system's light or dark scheme (docs/product.md#look-and-feel), and so does the editor.
 */
const useEditorTheme = () =>
  useSyncExternalStore(subscribeScheme, () => (darkQuery()?.matches === false ? 'light' : 'vs-dark'));

async function formatDocument(editor: StandaloneEditor): Promise<boolean> {
  const action = editor.getAction('editor.action.formatDocument');
  if (!action?.isSupported()) return false;
  await action.run();
  return true;
}

function showPlace(editor: StandaloneEditor, reveal: CodeEditorProps['reveal'], revealed: Set<string>): void {
  if (!reveal || revealed.has(reveal.id) || !editor.getModel()) return;
  revealed.add(reveal.id);
  // Monaco clamps a line or column past the end of the file.
  const position = { lineNumber: reveal.line, column: reveal.column ?? 1 };
  editor.setPosition(position);
  editor.revealPositionInCenter(position);
  // The place was asked for from elsewhere on the page (FixIt): bring the editor itself into view.
  editor.getDomNode()?.scrollIntoView({ block: 'center' });
  editor.focus();
}

/** The code area's editor: Monaco from the local package, one model per open tab. */
export function MonacoCodeEditor({
  modelPath,
  value,
  language,
  label,
  onChange,
  onSave,
  onFormatted,
  handleRef,
  openModelPaths,
  reveal,
}: CodeEditorProps) {
  const theme = useEditorTheme();
  // A new options object on every keystroke would make Monaco re-apply them all each time.
  const options = useMemo(() => ({ ...OPTIONS, ariaLabel: label }), [label]);
  // Monaco commands are registered once at mount; they read the latest callbacks from here.
  const latest = useRef({ onSave, onFormatted, handleRef });
  useEffect(() => {
    latest.current = { onSave, onFormatted, handleRef };
  });
  useEffect(() => () => latest.current.handleRef(null), []);

  // Each tab keeps its own model (undo history, cursor); a closed tab's model is freed. Runs after
  // the editor switched to the new active model, so the one on screen is never disposed.
  useEffect(() => {
    if (!openModelPaths) return;
    const open = new Set(openModelPaths.map((p) => monaco.Uri.parse(p).toString()));
    for (const model of monaco.editor.getModels()) {
      const uri = model.uri.toString();
      if (uri.startsWith(MODEL_PREFIX) && !open.has(uri)) model.dispose();
    }
  }, [openModelPaths]);

  // A place asked for (a build error's file:line): cursor on it, scrolled to the middle, once per
  // id. Runs after the editor switched to this tab's model (a child's effects run first); an editor
  // still loading shows it from onMount.
  const editorRef = useRef<StandaloneEditor | null>(null);
  const latestReveal = useRef(reveal);
  // Ids already shown: coming back to a tab later leaves its cursor where the user put it.
  const revealed = useRef(new Set<string>());
  useEffect(() => {
    latestReveal.current = reveal;
    if (editorRef.current) showPlace(editorRef.current, reveal, revealed.current);
  }, [reveal]);

  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    showPlace(editor, latestReveal.current, revealed.current);
    // Inside the editor Monaco sees the keys first; binding them here also stops the browser's own
    // Save dialog (Monaco prevents the default of every key it handles).
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => latest.current.onSave());
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyMod.Shift | monaco.KeyCode.KeyF, () => {
      void formatDocument(editor).then((formatted) => latest.current.onFormatted?.(formatted));
    });
    const handle: CodeEditorHandle = { format: () => formatDocument(editor), focus: () => editor.focus() };
    latest.current.handleRef(handle);
  };

  return (
    <Editor
      path={modelPath}
      value={value}
      language={language}
      theme={theme}
      options={options}
      onChange={(next) => onChange(next ?? '')}
      onMount={onMount}
      loading={<EditorLoading />}
    />
  );
}
