import { createContext, lazy, type ComponentType } from 'react';
import type { CodeEditorProps } from './code-editor-types.ts';

// The editor's contract lives apart: the lazily loaded Monaco component names it without a cycle.
export type { CodeEditorHandle, CodeEditorProps } from './code-editor-types.ts';

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
