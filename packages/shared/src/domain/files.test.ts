import { describe, expect, it } from 'vitest';
import { formatBytes } from '../format.ts';
import { FileCreateBody, languageFromPath } from './files.ts';

describe('languageFromPath (docs/product.md#entities)', () => {
  it.each([
    ['client/src/App.tsx', 'typescript'],
    ['server/routes.ts', 'typescript'],
    ['a.js', 'javascript'],
    ['a.JSX', 'javascript'],
    ['package.json', 'json'],
    ['client/src/index.css', 'css'],
    ['x.scss', 'scss'],
    ['index.html', 'html'],
    ['README.md', 'markdown'],
    ['main.py', 'python'],
    ['q.sql', 'sql'],
  ])('%s → %s', (path, lang) => expect(languageFromPath(path)).toBe(lang));

  it('falls back to typescript for anything else, dotfiles and extensionless names', () => {
    expect(languageFromPath('Makefile')).toBe('typescript');
    expect(languageFromPath('.gitignore')).toBe('typescript');
    expect(languageFromPath('a/b.c/file')).toBe('typescript');
    expect(languageFromPath('image.png')).toBe('typescript');
  });
});

describe('formatBytes (B, KB, MB)', () => {
  it('uses bytes below 1 KiB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
  });
  it('uses KB and MB with one decimal that drops a trailing .0', () => {
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(200 * 1024)).toBe('200 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatBytes(1.25 * 1024 * 1024)).toBe('1.3 MB');
  });
  it('never prints nonsense for bad input', () => {
    expect(formatBytes(-1)).toBe('0 B');
    expect(formatBytes(Number.NaN)).toBe('0 B');
  });
});

describe('FileCreateBody accepts both body forms of docs/product.md#http-calls', () => {
  it('the first form: type, name, parentPath', () => {
    expect(FileCreateBody.parse({ type: 'folder', name: 'lib', parentPath: 'src' })).toEqual({
      type: 'folder',
      name: 'lib',
      parentPath: 'src',
    });
  });
  it('the second form: path and content', () => {
    expect(FileCreateBody.parse({ path: 'src/a.ts' })).toEqual({ path: 'src/a.ts', content: '' });
  });
  it('refuses a blank name (docs/product.md#validation)', () => {
    expect(FileCreateBody.safeParse({ type: 'file', name: '   ', parentPath: '' }).success).toBe(false);
  });
});
