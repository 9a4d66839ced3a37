import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isInsideReal,
  isStrictlyWithin,
  isWithin,
  realWithin,
  realWithinSync,
  relativeWithin,
} from './contain.ts';

const root = path.resolve('/srv/project');
const at = (...segments: string[]) => path.join(root, ...segments);

describe('relativeWithin / isWithin (lexical)', () => {
  it('keeps names that only begin with two dots inside', () => {
    for (const name of ['..cache', '...', '..x/y', '.../z', 'a/..b']) {
      expect(relativeWithin(root, at(name)), name).toBe(name);
      expect(isWithin(root, at(name)), name).toBe(true);
      expect(isStrictlyWithin(root, at(name)), name).toBe(true);
    }
  });

  it('refuses the parent, its siblings and anything under them', () => {
    const outside = [
      path.dirname(root),
      path.join(root, '..'),
      path.join(root, '../x'),
      path.join(root, 'a/../../x'),
      `${root}-evil/file`,
      `${root}evil`,
      path.resolve('/etc/passwd'),
    ];
    for (const target of outside) {
      expect(relativeWithin(root, target), target).toBeNull();
      expect(isWithin(root, target), target).toBe(false);
      expect(isStrictlyWithin(root, target), target).toBe(false);
    }
  });

  it('answers forward-slash relative paths, "" for the root itself', () => {
    expect(relativeWithin(root, root)).toBe('');
    expect(relativeWithin(root, `${root}/`)).toBe('');
    expect(relativeWithin(root, at('a', 'b', 'c.txt'))).toBe('a/b/c.txt');
    expect(isWithin(root, root)).toBe(true);
    expect(isStrictlyWithin(root, root)).toBe(false);
  });

  it('treats "/" as a root that holds everything', () => {
    expect(relativeWithin('/', '/etc/passwd')).toBe('etc/passwd');
    expect(isWithin('/', '/')).toBe(true);
  });
});

describe('realWithin / isInsideReal (links followed)', () => {
  let base: string;
  let project: string;

  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'forge-contain-')));
    project = path.join(base, 'project');
    fs.mkdirSync(path.join(project, 'src'), { recursive: true });
    fs.mkdirSync(path.join(project, '..cache'));
    fs.writeFileSync(path.join(project, 'src', 'a.ts'), 'a');
    fs.writeFileSync(path.join(project, '..cache', 'hit'), 'h');
    fs.writeFileSync(path.join(base, 'secret.txt'), 'secret');
    fs.mkdirSync(path.join(base, 'project-evil'));
    fs.symlinkSync(path.join(base, 'secret.txt'), path.join(project, 'leak.txt'));
    fs.symlinkSync(base, path.join(project, 'up'));
    fs.symlinkSync(path.join(base, 'project-evil'), path.join(project, 'sibling'));
    fs.symlinkSync('src/a.ts', path.join(project, 'alias.ts'));
    fs.symlinkSync('loop', path.join(project, 'loop'));
    fs.symlinkSync('missing', path.join(project, 'dangling'));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('resolves links that stay inside, and "..cache"', async () => {
    const alias = path.join(project, 'alias.ts');
    expect(await realWithin(project, alias)).toBe(path.join(project, 'src', 'a.ts'));
    expect(realWithinSync(project, alias)).toBe(path.join(project, 'src', 'a.ts'));
    const cache = path.join(project, '..cache', 'hit');
    expect(await realWithin(project, cache)).toBe(cache);
    expect(isInsideReal(project, path.join(project, '..cache'))).toBe(true);
  });

  it('refuses links that escape, to a file, a parent or a sibling with a common prefix', async () => {
    for (const target of [
      path.join(project, 'leak.txt'),
      path.join(project, 'up'),
      path.join(project, 'up', 'secret.txt'),
      path.join(project, 'sibling'),
      path.join(project, 'src', '..', '..', 'secret.txt'),
    ]) {
      expect(await realWithin(project, target), target).toBeNull();
      expect(realWithinSync(project, target), target).toBeNull();
      expect(isInsideReal(project, target), target).toBe(false);
    }
  });

  it('answers null, not an error, for missing paths, dangling links and loops', async () => {
    for (const name of ['nope', 'dangling', 'loop', 'src/a.ts/below']) {
      expect(await realWithin(project, path.join(project, name)), name).toBeNull();
      expect(isInsideReal(project, path.join(project, name)), name).toBe(false);
    }
  });

  it('isInsideReal: strictly inside, through a linked parent too, never the folder itself', () => {
    fs.symlinkSync(project, path.join(base, 'project-link'));
    expect(isInsideReal(path.join(base, 'project-link'), path.join(project, 'src'))).toBe(true);
    expect(isInsideReal(project, project)).toBe(false);
    expect(isInsideReal(project, path.join(project, '.'))).toBe(false);
    expect(isInsideReal(path.join(base, 'gone'), path.join(base, 'gone', 'x'))).toBe(false);
  });
});
