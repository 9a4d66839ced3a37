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
