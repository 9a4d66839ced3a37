import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProject, projectFolder } from './project-files.ts';

let base: string;
let dir: string;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'forge-project-files-')));
  dir = path.join(base, 'project');
  await fs.mkdir(path.join(dir, '..config'), { recursive: true });
  await fs.writeFile(path.join(dir, '..config', 'package.json'), '{"name":"inside"}');
  await fs.writeFile(path.join(base, 'package.json'), '{"name":"outside"}');
});
afterEach(() => fs.rm(base, { recursive: true, force: true }));

describe('openProject', () => {
  it('follows a link into a folder whose name starts with two dots: it is inside', async () => {
    await fs.symlink('..config/package.json', path.join(dir, 'package.json'));
    const project = await openProject(dir);
    expect(await project.read('package.json')).toMatchObject({ text: '{"name":"inside"}' });
    expect(project.skipped).toEqual([]);
  });

  it('never follows a link out of the project, and says so', async () => {
    await fs.symlink('../package.json', path.join(dir, 'package.json'));
    const project = await openProject(dir);
    expect(await project.read('package.json')).toBeNull();
    expect(project.skipped).toEqual([{ file: 'package.json', reason: expect.stringContaining('outside') }]);
  });
});

describe('listDirs and projectFolder', () => {
  it('lists real folders only, sorted, without dot-folders and node_modules', async () => {
    for (const name of ['b', 'a', '.git', 'node_modules']) await fs.mkdir(path.join(dir, name));
    await fs.writeFile(path.join(dir, 'file.txt'), '');
    await fs.symlink(base, path.join(dir, 'linked'));
    const project = await openProject(dir);
    // `..config` is a dot-folder too: listing is for finding apps, which never live in one.
    expect(await project.listDirs('.')).toEqual(['a', 'b']);
    expect(await project.listDirs('missing')).toEqual([]);
    expect(await project.listDirs('linked')).toEqual([]);
  });

  it('sees the project from a folder, keeping links inside the project and refusing the rest', async () => {
    await fs.mkdir(path.join(dir, 'apps', 'web'), { recursive: true });
    await fs.writeFile(path.join(dir, 'apps', 'web', 'package.json'), '{"name":"web"}');
    await fs.symlink('../../..config/package.json', path.join(dir, 'apps', 'web', 'shared.json'));
    await fs.symlink('../../../package.json', path.join(dir, 'apps', 'web', 'escape.json'));
    const web = projectFolder(await openProject(dir), 'apps/web');
    expect(await web.read('package.json')).toMatchObject({ text: '{"name":"web"}' });
    expect(await web.firstFile(['nope.json', 'package.json'])).toBe('package.json');
    expect(await web.read('shared.json')).toMatchObject({ text: '{"name":"inside"}' });
    expect(await web.read('escape.json')).toBeNull();
    expect(web.skipped).toEqual([{ file: 'escape.json', reason: expect.stringContaining('outside') }]);
    await expect(web.read('../../package.json')).rejects.toThrow(/project-relative/);
  });
});
