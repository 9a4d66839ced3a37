import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForgeError } from '../http/forge-error.ts';
import { checkRelPath, projectRoot, resolveExisting, resolveLinkParent, resolveNew } from './safe-path.ts';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ForgeError) return err.code;
    throw err;
  }
  return 'no error';
};

describe('checkRelPath', () => {
  it.each([
    ['src/App.tsx', 'src/App.tsx'],
    ['package.json', 'package.json'],
    ['%2e%2e', '%2e%2e'],
    ['%2e%2e/%2e%2e/etc/passwd', '%2e%2e/%2e%2e/etc/passwd'],
    ['..foo/bar..', '..foo/bar..'],
    ['.env', '.env'],
    ['dir with spaces/ünïcode.ts', 'dir with spaces/ünïcode.ts'],
  ])('accepts %j as a name inside the project', (input, expected) => {
    expect(checkRelPath(input)).toBe(expected);
  });

  it.each([
    ['..', 'PATH_OUTSIDE_PROJECT'],
    ['../x', 'PATH_OUTSIDE_PROJECT'],
    ['../../etc/passwd', 'PATH_OUTSIDE_PROJECT'],
    ['src/../../x', 'PATH_OUTSIDE_PROJECT'],
    ['src/..', 'PATH_OUTSIDE_PROJECT'],
    ['/etc/passwd', 'PATH_OUTSIDE_PROJECT'],
    ['C:\\x', 'PATH_OUTSIDE_PROJECT'],
    ['c:/windows', 'PATH_OUTSIDE_PROJECT'],
    ['\\\\server\\share', 'PATH_OUTSIDE_PROJECT'],
    ['src\\App.tsx', 'PATH_INVALID'],
    ['..\\..\\x', 'PATH_INVALID'],
    ['a\0b', 'PATH_INVALID'],
    ['a\nb', 'PATH_INVALID'],
    ['', 'PATH_INVALID'],
    ['.', 'PATH_INVALID'],
    ['./src', 'PATH_INVALID'],
    ['src/./x', 'PATH_INVALID'],
    ['src//x', 'PATH_INVALID'],
    ['src/', 'PATH_INVALID'],
    ['x'.repeat(256), 'PATH_INVALID'],
  ])('refuses %j with %s', (input, code) => {
    expect(codeOf(() => checkRelPath(input))).toBe(code);
  });

  it('accepts the root only when asked to', () => {
    expect(checkRelPath('', { allowRoot: true })).toBe('');
  });

  it('shows a NUL byte escaped in its message', () => {
    expect(() => checkRelPath('a\0b')).toThrow('a\\x00b');
  });
});

describe('resolving inside a project', () => {
  let base: string;
  let root: string;
  let outsideDir: string;

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-safe-path-'));
    root = path.join(base, 'project');
    outsideDir = path.join(base, 'outside');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.mkdirSync(outsideDir);
    fs.writeFileSync(path.join(root, 'src/a.ts'), 'a');
    fs.writeFileSync(path.join(outsideDir, 'secret.txt'), 'secret');
    fs.symlinkSync(outsideDir, path.join(root, 'out-dir'));
    fs.symlinkSync(path.join(outsideDir, 'secret.txt'), path.join(root, 'out-file'));
    fs.symlinkSync(path.join(outsideDir, 'missing.txt'), path.join(root, 'out-dangling'));
    fs.symlinkSync('src/a.ts', path.join(root, 'in-file'));
    fs.symlinkSync('src', path.join(root, 'in-dir'));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('follows links that stay inside', () => {
    const r = projectRoot(root);
    expect(resolveExisting(r, 'in-file')).toBe(path.join(r.real, 'src/a.ts'));
    expect(resolveExisting(r, 'in-dir/a.ts')).toBe(path.join(r.real, 'src/a.ts'));
    expect(resolveNew(r, 'in-dir/new.ts')).toEqual({ abs: path.join(r.real, 'src/new.ts'), exists: false });
  });

  it('refuses links that point out, also when they dangle', () => {
    const r = projectRoot(root);
    expect(codeOf(() => resolveExisting(r, 'out-file'))).toBe('PATH_OUTSIDE_PROJECT');
    expect(codeOf(() => resolveExisting(r, 'out-dir/secret.txt'))).toBe('PATH_OUTSIDE_PROJECT');
    expect(codeOf(() => resolveExisting(r, 'out-dangling'))).toBe('PATH_OUTSIDE_PROJECT');
    expect(codeOf(() => resolveNew(r, 'out-dir/new.txt'))).toBe('PATH_OUTSIDE_PROJECT');
    expect(codeOf(() => resolveNew(r, 'out-dir/deeper/new.txt'))).toBe('PATH_OUTSIDE_PROJECT');
    // An existing file out there must not show up as "exists" either.
    expect(codeOf(() => resolveNew(r, 'out-dir/secret.txt'))).toBe('PATH_OUTSIDE_PROJECT');
    expect(codeOf(() => resolveLinkParent(r, 'out-dir/secret.txt'))).toBe('PATH_OUTSIDE_PROJECT');
  });

  it('keeps names that begin with two dots inside, and a look-alike sibling folder outside', () => {
    fs.mkdirSync(path.join(root, '..cache'));
    fs.writeFileSync(path.join(root, '..cache', 'hit.json'), '{}');
    fs.symlinkSync('..cache/hit.json', path.join(root, 'hit-link.json'));
    fs.mkdirSync(path.join(base, 'project-evil'));
    fs.symlinkSync(path.join(base, 'project-evil'), path.join(root, 'evil'));
    const r = projectRoot(root);
    expect(resolveExisting(r, '..cache/hit.json')).toBe(path.join(r.real, '..cache', 'hit.json'));
    expect(resolveExisting(r, 'hit-link.json')).toBe(path.join(r.real, '..cache', 'hit.json'));
    expect(resolveNew(r, '..cache/new.json')).toMatchObject({ exists: false });
    expect(codeOf(() => resolveNew(r, 'evil/new.json'))).toBe('PATH_OUTSIDE_PROJECT');
  });

  it('names the link itself, not its target, for delete and rename', () => {
    const r = projectRoot(root);
    expect(resolveLinkParent(r, 'out-file')).toBe(path.join(r.real, 'out-file'));
    expect(resolveNew(r, 'out-dangling')).toMatchObject({ exists: true });
  });

  it('answers a missing file as missing, and a file used as a folder as invalid', () => {
    const r = projectRoot(root);
    expect(codeOf(() => resolveExisting(r, 'src/nope.ts'))).toBe('FILE_NOT_FOUND');
    expect(codeOf(() => resolveNew(r, 'src/a.ts/child.ts'))).toBe('PATH_INVALID');
    expect(resolveNew(r, 'deep/new/file.ts')).toEqual({
      abs: path.join(r.real, 'deep/new/file.ts'),
      exists: false,
    });
  });
});
