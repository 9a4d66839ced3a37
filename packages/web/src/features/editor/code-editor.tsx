import { createContext, lazy, type ComponentType } from 'react';
import type { EditorReveal } from './editor-state.ts';

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
  /** A line to scroll to and put the cursor on, once per id (a build error's file:line). */
  reveal?: EditorReveal;
}

/** The longest Monaco waits for an idle moment before it loads anyway. */
const IDLE_TIMEOUT_MS = 1000;

/**
 * Resolves at the page's next idle moment (at most IDLE_TIMEOUT_MS away); at once where the
 * browser has no requestIdleCallback (Safari).
 */
function nextIdle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof window.requestIdleCallback === 'function') {
      window.requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS });
    } else {
      resolve();
    }
  });
}

/**
 * Monaco, loaded on first use: its ~1 MB (gzip) never weighs on the first paint of the dashboard
 * (its first-load budget: docs/performance.md). The first tab opens while the dashboard is still
 * rendering what its first answers brought; compiling Monaco's 4 MB of script then would hold the
 * page's main thread for hundreds of milliseconds just as it becomes usable, so the import waits
 * for the page to go idle first ("Loading editor" shows meanwhile, as it does during the download).
 */
export const LazyMonacoEditor = lazy(() =>
  nextIdle()
    .then(() => import('./components/monaco-code-editor.tsx'))
    .then((m) => ({ default: m.MonacoCodeEditor })),
);

/** The editor the code area shows; tests provide a plain textarea instead (Monaco needs a real browser). */
export const CodeEditorContext = createContext<ComponentType<CodeEditorProps>>(LazyMonacoEditor);
