import { createContext, lazy, type ComponentType } from 'react';

/** What the code area asks of the editor it shows; Monaco in the app, a stand-in in tests. */
export interface CodeEditorHandle {
  /** Run the language's formatter on the whole file; false when the language has none. */
  format: () => Promise<boolean>;
  focus: () => void;
}

export interface CodeEditorProps {
  /** Unique per tab and stable while it is open, ending in the file name (the language service reads it). */
  modelPath: string;
  value: string;
  language: string;
  /** Accessible name of the editing surface. */
  label: string;
  onChange: (value: string) => void;
  /** Ctrl/Cmd+S inside the editor. */
  onSave: () => void;
  /** Ctrl/Cmd+Shift+F inside the editor (after the editor formatted, or found no formatter). */
  onFormatted?: (formatted: boolean) => void;
  handleRef: (handle: CodeEditorHandle | null) => void;
  /** Model paths of every open tab; the editor may free what it holds for any other. */
  openModelPaths?: readonly string[];
}

/**
 * Monaco, loaded on first use: its ~1 MB (gzip) never weighs on the first paint of the dashboard
 * (issue 4 budget: under 300 KB first-load JS).
 */
export const LazyMonacoEditor = lazy(() =>
  import('./components/monaco-code-editor.tsx').then((m) => ({ default: m.MonacoCodeEditor })),
);

/** The editor the code area shows; tests provide a plain textarea instead (Monaco needs a real browser). */
export const CodeEditorContext = createContext<ComponentType<CodeEditorProps>>(LazyMonacoEditor);
