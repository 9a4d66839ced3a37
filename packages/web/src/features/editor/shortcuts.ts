/**
 * The code area's keys (docs/product.md#code-area), matched by key or physical code so other layouts work
 * too.
 */
interface KeyLike {
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

const primary = (e: KeyLike) => (e.ctrlKey || e.metaKey) && !e.altKey;
const is = (e: KeyLike, letter: string) =>
  e.key.toLowerCase() === letter || e.code === `Key${letter.toUpperCase()}`;

/** Ctrl+S or Cmd+S: save the current file. */
export const isSaveShortcut = (e: KeyLike): boolean => primary(e) && !e.shiftKey && is(e, 's');

/** Ctrl+Shift+F or Cmd+Shift+F: format the current file. */
export const isFormatShortcut = (e: KeyLike): boolean => primary(e) && e.shiftKey && is(e, 'f');
