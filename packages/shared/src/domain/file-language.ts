// A file's language from its name, without the files' schemas (files.ts re-exports it), so a
// client's first paint can use it without zod (schema-free.ts).

const LANGUAGE_BY_EXTENSION: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  json: 'json',
  css: 'css',
  scss: 'scss',
  html: 'html',
  md: 'markdown',
  py: 'python',
  sql: 'sql',
};

export const fileExtension = (path: string): string => {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
};

/** Language from the file extension (docs/product.md#entities); anything else is typescript. */
export const languageFromPath = (path: string): string =>
  LANGUAGE_BY_EXTENSION[fileExtension(path)] ?? 'typescript';
