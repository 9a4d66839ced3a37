import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completePath } from './complete-path.ts';

let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'forge-tui-complete-'));
  await writeFile(join(cwd, 'site.zip'), 'x');
  await writeFile(join(cwd, 'site-old.ZIP'), 'x');
  await writeFile(join(cwd, 'notes.txt'), 'x');
  await writeFile(join(cwd, '.hidden.zip'), 'x');
  await mkdir(join(cwd, 'builds/nested'), { recursive: true });
  await writeFile(join(cwd, 'builds/app.zip'), 'x');
  await symlink(join(cwd, 'builds'), join(cwd, 'linked'));
});

afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe('completePath', () => {
  it('completes a single match whole', async () => {
    await expect(completePath('no', cwd)).resolves.toMatchObject({ value: 'no', none: true });
    await expect(completePath('b', cwd)).resolves.toEqual({ value: 'builds/', candidates: [], none: false });
    await expect(completePath('builds/a', cwd)).resolves.toMatchObject({ value: 'builds/app.zip' });
  });

  it('completes several matches to their common prefix and lists them', async () => {
    await expect(completePath('s', cwd)).resolves.toEqual({
      value: 'site',
      candidates: ['site-old.ZIP', 'site.zip'],
      none: false,
    });
  });

  it('offers folders and ZIPs only, dotfiles only when asked for', async () => {
    const all = await completePath('', cwd);
    expect(all.candidates).toEqual(['builds/', 'linked/', 'site-old.ZIP', 'site.zip']);
    await expect(completePath('.h', cwd)).resolves.toMatchObject({ value: '.hidden.zip' });
  });

  it('follows absolute paths and says when a folder does not exist', async () => {
    await expect(completePath(`${cwd}/builds/n`, cwd)).resolves.toMatchObject({
      value: `${cwd}/builds/nested/`,
    });
    await expect(completePath('missing/x', cwd)).resolves.toMatchObject({ none: true });
  });
});
