import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settleBackgroundRemovals } from './background-removal.ts';
import { sweepScratch, writeFileAtomic } from './atomic-write.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const setup = () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-atomic-'));
  dirs.push(root);
  const scratchDir = path.join(root, 'tmp');
  const project = path.join(root, 'project');
  fs.mkdirSync(project);
  return { scratchDir, project };
};

describe('writeFileAtomic', () => {
  it('replaces the file whole, keeps the given mode, and leaves nothing beside it or in scratch', async () => {
    const { scratchDir, project } = setup();
    const file = path.join(project, 'run.sh');
    fs.writeFileSync(file, 'old');
    fs.chmodSync(file, 0o751);
    await writeFileAtomic(file, 'new content', { scratchDir, mode: 0o751 });
    expect(fs.readFileSync(file, 'utf8')).toBe('new content');
    expect(fs.statSync(file).mode & 0o7777).toBe(0o751);
    expect(fs.readdirSync(project)).toEqual(['run.sh']);
    expect(fs.readdirSync(scratchDir)).toEqual([]);
  });

  it('removes its temporary and keeps the old file when the rename fails', async () => {
    const { scratchDir, project } = setup();
    const target = path.join(project, 'a-folder');
    fs.mkdirSync(target);
    const error = await writeFileAtomic(target, 'x', { scratchDir }).catch((e: NodeJS.ErrnoException) => e);
    expect((error as NodeJS.ErrnoException).code).toBe('EISDIR');
    expect(fs.statSync(target).isDirectory()).toBe(true);
    expect(fs.readdirSync(scratchDir)).toEqual([]);
  });
});

describe('sweepScratch', () => {
  it('removes everything a killed daemon left, files and folders', async () => {
    const { scratchDir } = setup();
    fs.mkdirSync(path.join(scratchDir, '.extract-abc', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(scratchDir, '.extract-abc', 'deep', 'f'), 'x');
    fs.writeFileSync(path.join(scratchDir, 'write-0123'), 'half');
    fs.writeFileSync(path.join(scratchDir, 'upload-77.zip'), 'PK');
    expect(sweepScratch(scratchDir)).toBe(3);
    await settleBackgroundRemovals();
    expect(fs.readdirSync(scratchDir)).toEqual([]);
    expect(sweepScratch(path.join(scratchDir, 'missing'))).toBe(0);
  });
});
