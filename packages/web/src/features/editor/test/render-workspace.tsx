import { useEffect, type ReactElement } from 'react';
import { CodeEditorContext, type CodeEditorProps } from '../code-editor.tsx';
import { createEditorStore, EditorStoreProvider, type EditorStore } from '../editor-store.tsx';
import { renderPanel, type RenderedPanel } from '@/test/render-panel.tsx';

/** Monaco needs a real browser; in happy-dom the code area edits through a plain textarea. */
export function StubEditor({ value, label, onChange, handleRef }: CodeEditorProps) {
  useEffect(() => {
    handleRef({ format: async () => true, focus: () => undefined });
    return () => handleRef(null);
  }, [handleRef]);
  return <textarea aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} />;
}

/** Panels of the editor and file features with their own editor store and the stand-in editor. */
export function renderWorkspace(ui: ReactElement): RenderedPanel & { store: EditorStore } {
  const store = createEditorStore();
  const view = renderPanel(
    <EditorStoreProvider store={store}>
      <CodeEditorContext.Provider value={StubEditor}>{ui}</CodeEditorContext.Provider>
    </EditorStoreProvider>,
  );
  return { ...view, store };
}
