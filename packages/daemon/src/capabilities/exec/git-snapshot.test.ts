import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitSnapshot, SNAPSHOT_MARK } from './git-snapshot.ts';
import { makeTempDir } from '../../../test/support/temp-files.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-git-snapshot-'));
});
afterEach(() => cleanup());

const git = (...args: string[]) =>
  execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  }).trim();

async function write(files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
}

describe('gitSnapshot', () => {
  it('makes one commit of what git add -A would take, by Forge, dated by the newest file', async () => {
    await write({
      'package.json': '{"name":"docs"}',
      'docs/index.md': '# Hello\n',
      'scripts/stamp.sh': 'git log -1 --format=%cd\n',
      '.gitignore': 'dist/\n',
      'dist/index.html': 'built',
      'node_modules/left-pad/index.js': 'module.exports = 1;',
      'a "quoted" name.txt': 'x',
    });
    await chmod(path.join(dir, 'scripts/stamp.sh'), 0o755);
    await symlink('docs/index.md', path.join(dir, 'README.md'));
    const newest = new Date('2024-05-17T09:30:00Z');
    await utimes(path.join(dir, 'docs/index.md'), newest, newest);
    for (const f of ['package.json', 'scripts/stamp.sh', '.gitignore', 'a "quoted" name.txt']) {
      await utimes(path.join(dir, f), new Date('2024-01-01T00:00:00Z'), new Date('2024-01-01T00:00:00Z'));
    }
    const made = await gitSnapshot(dir);
    expect(made).toMatchObject({ made: true, files: 6, date: newest });
    expect(git('log', '--format=%an <%ae>|%cI|%s')).toBe(
      'Forge <forge@localhost>|2024-05-17T09:30:00+00:00|Snapshot of the uploaded files',
    );
    expect(git('rev-parse', 'HEAD')).toBe((made as { commit: string }).commit);
    expect(git('branch', '--show-current')).toBe('main');
    expect(
      git('ls-files', '-s', 'scripts/stamp.sh', 'README.md')
        .split('\n')
        .map((l) => l.split(' ')[0]),
    ).toEqual(['120000', '100755']);
    expect(git('ls-files')).not.toMatch(/node_modules|dist\//);
    expect(git('ls-files', '-z').split('\0')).toContain('a "quoted" name.txt');
    // A clean tree: `git describe --dirty` and status agree with the files.
    expect(git('status', '--porcelain')).toBe('');
    expect(await readFile(path.join(dir, '.git', 'description'), 'utf8')).toBe(`${SNAPSHOT_MARK}\n`);
  });

  it('makes it again for the next build (same files, same commit), and leaves a .git it did not make alone', async () => {
    await write({ 'package.json': '{"name":"a"}' });
    const first = await gitSnapshot(dir);
    await write({ 'src/new.js': 'export {};\n' });
    const second = await gitSnapshot(dir);
    expect(second).toMatchObject({ made: true, files: 2 });
    expect(git('rev-list', '--count', 'HEAD')).toBe('1');
    expect((second as { commit: string }).commit).not.toBe((first as { commit: string }).commit);

    await writeFile(path.join(dir, '.git', 'description'), "the developer's own repository\n");
    expect(await gitSnapshot(dir)).toEqual({
      made: false,
      reason: 'the project has a .git of its own: it is used as it is',
    });
  });
});
