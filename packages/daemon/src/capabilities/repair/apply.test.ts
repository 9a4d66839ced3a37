import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { settleBackgroundRemovals } from '../extract/index.ts';
import { applyPlan, restoreBackup } from './apply.ts';
import { unifiedDiff } from './diff.ts';
import { useTempDirs, writeTree } from '../../../test/support/repair-projects.ts';
import type { RepairPlan } from './types.ts';

const tempDir = useTempDirs();

const plan = (over: Partial<RepairPlan>): RepairPlan => ({
  code: 'ADD_MISSING_PACKAGES',
  summary: 'test',
  files: [],
  diff: '',
  writes: [],
  backup: [],
  ...over,
});

/** Every file under `dir` (relative path → bytes), node_modules left out. */
async function snapshot(dir: string, rel = ''): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const child = path.posix.join(rel, entry.name);
    if (entry.isDirectory()) for (const [k, v] of await snapshot(dir, child)) out.set(k, v);
    else out.set(child, await readFile(path.join(dir, child)));
  }
  return out;
}

describe('applyPlan and restoreBackup', () => {
  it('round-trips: files come back byte for byte, created files and folders go', async () => {
    const project = await tempDir();
    const backupDir = path.join(await tempDir(), 'r1');
    const lock = randomBytes(4096);
    await writeTree(project, {
      'package.json': '{\n  "name": "app"\n}\n',
      'src/App.tsx': 'import Header from "./components/header";\n',
      'yarn.lock': '# an old lockfile\n',
      'bun.lockb': lock,
    });
    await chmod(path.join(project, 'src/App.tsx'), 0o755);
    const before = await snapshot(project);

    const applied = await applyPlan(
      plan({
        files: ['package.json', 'src/App.tsx', 'bun.lockb'],
        writes: [
          { file: 'package.json', content: '{\n  "name": "app",\n  "dependencies": {}\n}\n' },
          { file: 'src/App.tsx', content: 'import Header from "./components/Header";\n' },
          { file: 'src/new/deep/file.ts', content: 'export {};\n' },
          { file: 'yarn.lock', content: null },
        ],
        backup: ['bun.lockb', 'package-lock.json'],
      }),
      project,
      backupDir,
    );
    expect(applied.files.sort()).toEqual([
      'bun.lockb',
      'package.json',
      'src/App.tsx',
      'src/new/deep/file.ts',
      'yarn.lock',
    ]);
    expect(await readFile(path.join(project, 'src/App.tsx'), 'utf8')).toContain('./components/Header');
    expect((await stat(path.join(project, 'src/App.tsx'))).mode & 0o777).toBe(0o755);
    expect(await readFile(path.join(project, 'src/new/deep/file.ts'), 'utf8')).toBe('export {};\n');
    expect(existsSync(path.join(project, 'yarn.lock'))).toBe(false);

    // The install that follows rewrites the lockfile and creates another.
    await writeFile(path.join(project, 'bun.lockb'), randomBytes(100));
    await writeFile(path.join(project, 'package-lock.json'), '{}');

    const restored = await restoreBackup(backupDir, project);
    expect(restored.sort()).toEqual([
      'bun.lockb',
      'package-lock.json',
      'package.json',
      'src/App.tsx',
      'src/new/deep/file.ts',
      'yarn.lock',
    ]);
    expect(await snapshot(project)).toEqual(before);
    expect(existsSync(path.join(project, 'src/new'))).toBe(false);
    expect((await stat(path.join(project, 'src/App.tsx'))).mode & 0o777).toBe(0o755);
  });

  it('writes exactly what the diff says', async () => {
    const project = await tempDir();
    const old = '{\n  "name": "app",\n  "dependencies": {\n    "react": "^18.0.0"\n  }\n}\n';
    const next =
      '{\n  "name": "app",\n  "dependencies": {\n    "canvas-confetti": "^1.9.3",\n    "react": "^18.0.0"\n  }\n}\n';
    await writeTree(project, { 'package.json': old });
    const diff = unifiedDiff([{ file: 'package.json', before: old, after: next }]);
    expect(diff).toBe(
      [
        '--- a/package.json',
        '+++ b/package.json',
        '@@ -1,6 +1,7 @@',
        ' {',
        '   "name": "app",',
        '   "dependencies": {',
        '+    "canvas-confetti": "^1.9.3",',
        '     "react": "^18.0.0"',
        '   }',
        ' }',
        '',
      ].join('\n'),
    );
    await applyPlan(
      plan({ files: ['package.json'], writes: [{ file: 'package.json', content: next }], diff }),
      project,
      path.join(await tempDir(), 'b'),
    );
    const { applyPatch } = await import('diff');
    expect(applyPatch(old, diff)).toBe(await readFile(path.join(project, 'package.json'), 'utf8'));
  });

  it('refuses a ../ path and a link out of the project, before saving or writing anything', async () => {
    const root = await tempDir();
    const project = path.join(root, 'project');
    const outside = path.join(root, 'outside');
    await writeTree(project, { 'package.json': '{}' });
    await writeTree(outside, { 'secret.txt': 'keep me\n' });
    await symlink(outside, path.join(project, 'linked'));
    await symlink(path.join(outside, 'secret.txt'), path.join(project, 'secret-link.txt'));
    const backupDir = path.join(root, 'backup');

    const attempts: RepairPlan[] = [
      plan({
        writes: [
          { file: 'package.json', content: '{"x":1}' },
          { file: '../outside/secret.txt', content: 'pwned' },
        ],
      }),
      plan({
        writes: [
          { file: 'package.json', content: '{"x":1}' },
          { file: 'linked/secret.txt', content: 'pwned' },
        ],
      }),
      plan({
        writes: [
          { file: 'package.json', content: '{"x":1}' },
          { file: 'linked/new.txt', content: 'pwned' },
        ],
      }),
      plan({ writes: [{ file: 'secret-link.txt', content: 'pwned' }] }),
      plan({ writes: [{ file: '/etc/passwd', content: 'pwned' }] }),
      plan({ backup: ['linked/secret.txt'] }),
    ];
    for (const attempt of attempts) {
      await expect(applyPlan(attempt, project, backupDir)).rejects.toMatchObject({
        code: 'PATH_OUTSIDE_PROJECT',
      });
    }
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('keep me\n');
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
    expect(await readFile(path.join(project, 'package.json'), 'utf8')).toBe('{}');
    expect(existsSync(path.join(backupDir, 'manifest.json'))).toBe(false);
  });

  it('refuses a folder as a file and a backup folder used before', async () => {
    const project = await tempDir();
    await writeTree(project, { 'src/a.ts': 'a', 'package.json': '{}' });
    await expect(
      applyPlan(plan({ writes: [{ file: 'src', content: 'x' }] }), project, path.join(project, '..', 'x')),
    ).rejects.toMatchObject({
      code: 'NOT_A_FILE',
    });
    const backupDir = path.join(await tempDir(), 'once');
    const edit = (content: string) =>
      plan({ files: ['package.json'], writes: [{ file: 'package.json', content }] });
    await applyPlan(edit('{"a":1}'), project, backupDir);
    await expect(applyPlan(edit('{"a":2}'), project, backupDir)).rejects.toThrow(/already holds/);
    expect(await readFile(path.join(project, 'package.json'), 'utf8')).toBe('{"a":1}');
  });

  it('says so when there is no backup to restore', async () => {
    const project = await tempDir();
    await expect(restoreBackup(path.join(project, 'nope'), project)).rejects.toMatchObject({
      code: 'REPAIR_NOT_FOUND',
    });
  });

  it('drops node_modules (moved aside, removed in the background) and only unlinks a linked one', async () => {
    const root = await tempDir();
    const project = path.join(root, 'project');
    const scratch = path.join(root, 'tmp');
    await writeTree(project, {
      'package.json': '{}',
      'node_modules/pkg/index.js': 'x',
      'apps/web/package.json': '{}',
    });
    const shared = path.join(root, 'shared-modules');
    await writeTree(shared, { 'keep/index.js': 'kept' });
    await symlink(shared, path.join(project, 'apps/web/node_modules'));

    await applyPlan(
      plan({
        code: 'DROP_FOREIGN_NODE_MODULES',
        dropNodeModules: true,
        nodeModules: ['node_modules', 'apps/web/node_modules'],
      }),
      project,
      path.join(root, 'backups', 'r1'),
      { scratchDir: scratch, scope: { installDir: '.', appDir: 'apps/web' } },
    );
    expect(existsSync(path.join(project, 'node_modules'))).toBe(false);
    await expect(lstat(path.join(project, 'apps/web/node_modules'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(await readFile(path.join(shared, 'keep/index.js'), 'utf8')).toBe('kept');
    await settleBackgroundRemovals();
    expect(await readdir(scratch)).toEqual([]);
    expect(await readFile(path.join(project, 'package.json'), 'utf8')).toBe('{}');
  });

  it('refuses to drop a node_modules whose folder is a link out of the project', async () => {
    const root = await tempDir();
    const project = path.join(root, 'project');
    await mkdir(path.join(root, 'elsewhere', 'node_modules', 'x'), { recursive: true });
    await writeTree(project, { 'package.json': '{}' });
    await symlink(path.join(root, 'elsewhere'), path.join(project, 'app'));
    await expect(
      applyPlan(
        plan({ dropNodeModules: true, nodeModules: ['app/node_modules'] }),
        project,
        path.join(root, 'b'),
        { scope: { installDir: '.', appDir: 'app' } },
      ),
    ).rejects.toMatchObject({ code: 'PATH_OUTSIDE_PROJECT' });
    expect(existsSync(path.join(root, 'elsewhere', 'node_modules', 'x'))).toBe(true);
  });

  it('refuses, before anything is saved, what a repair never touches: a committed node_modules fixture, an undeclared or deleted file', async () => {
    const root = await tempDir();
    const project = path.join(root, 'project');
    const fixture = 'test/fixtures/legacy-app/node_modules/left-pad/index.js';
    await writeTree(project, {
      'package.json': '{}',
      'package-lock.json': '{}',
      'src/main.js': 'export {};\n',
      'node_modules/pkg/index.js': 'x',
      [fixture]: 'module.exports = () => "committed";\n',
    });
    const before = await snapshot(project);
    const backupDir = path.join(root, 'backup');
    const attempts: RepairPlan[] = [
      plan({
        code: 'DROP_FOREIGN_NODE_MODULES',
        dropNodeModules: true,
        nodeModules: ['node_modules', 'test/fixtures/legacy-app/node_modules'],
      }),
      plan({ files: ['src/main.js'], writes: [{ file: 'src/main.js', content: null }] }),
      plan({ files: ['package.json'], writes: [{ file: 'src/main.js', content: 'changed' }] }),
      plan({ files: [fixture], writes: [{ file: fixture, content: 'changed' }] }),
      plan({
        files: ['node_modules/pkg/index.js'],
        writes: [{ file: 'node_modules/pkg/index.js', content: 'x2' }],
      }),
    ];
    for (const attempt of attempts) {
      await expect(applyPlan(attempt, project, backupDir)).rejects.toMatchObject({
        code: 'REPAIR_OUT_OF_SCOPE',
      });
    }
    expect(await snapshot(project)).toEqual(before);
    expect(existsSync(backupDir)).toBe(false);

    // The install's own node_modules and lockfile are the repair's to replace.
    await applyPlan(
      plan({
        code: 'DROP_FOREIGN_NODE_MODULES',
        files: [],
        writes: [{ file: 'package-lock.json', content: null }],
        dropNodeModules: true,
      }),
      project,
      backupDir,
      { scratchDir: path.join(root, 'tmp') },
    );
    expect(existsSync(path.join(project, 'node_modules'))).toBe(false);
    expect(existsSync(path.join(project, 'package-lock.json'))).toBe(false);
    expect(await readFile(path.join(project, fixture), 'utf8')).toContain('committed');
    await settleBackgroundRemovals();
  });
});
