import { describe, expect, it } from 'vitest';
import { isFormatShortcut, isSaveShortcut } from './shortcuts.ts';

const key = (init: Partial<KeyboardEventInit> & { key: string }) => ({
  code: '',
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...init,
});

describe('code area shortcuts (docs/product.md#code-area)', () => {
  it('saves on Ctrl+S and Cmd+S, by key or physical key', () => {
    expect(isSaveShortcut(key({ key: 's', ctrlKey: true }))).toBe(true);
    expect(isSaveShortcut(key({ key: 's', metaKey: true }))).toBe(true);
    expect(isSaveShortcut(key({ key: 'ы', code: 'KeyS', ctrlKey: true }))).toBe(true);
    expect(isSaveShortcut(key({ key: 's' }))).toBe(false);
    expect(isSaveShortcut(key({ key: 'S', ctrlKey: true, shiftKey: true }))).toBe(false);
  });

  it('formats on Ctrl+Shift+F and Cmd+Shift+F', () => {
    expect(isFormatShortcut(key({ key: 'F', ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(isFormatShortcut(key({ key: 'F', metaKey: true, shiftKey: true }))).toBe(true);
    expect(isFormatShortcut(key({ key: 'f', ctrlKey: true }))).toBe(false);
  });
});
