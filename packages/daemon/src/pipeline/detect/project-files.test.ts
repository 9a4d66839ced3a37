import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProject } from './project-files.ts';

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
