import { execFileSync, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, readlinkSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { listZip } from '@forge/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../../test/support/checks-tree.ts';
import { extractArchive, settleBackgroundRemovals } from '../extract/index.ts';
import { zipDirToFile } from './zip-dir.ts';

const hasUnzip = spawnSync('unzip', ['-v']).status === 0;

let base: string;
let src: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: base, cleanup } = await tempDir('forge-zip-links-'));
  src = path.join(base, 'src');
  await writeTree(src, {
    'AGENTS.md': '# agents\n',
    'packages/shared/index.js': 'export const shared = 1;\n',
    'apps/web/index.html': '<p>web</p>',
  });
  await symlink('AGENTS.md', path.join(src, 'CLAUDE.md'));
  await symlink('../../packages/shared', path.join(src, 'apps/web/shared'));
  await symlink('/etc/passwd', path.join(src, 'passwd'));
  await symlink('../outside', path.join(src, 'out'));
  await symlink('missing.md', path.join(src, 'dangling.md'));
  await symlink('..', path.join(src, 'apps/up'));
});
afterEach(async () => {
  await settleBackgroundRemovals();
  await cleanup();
});

describe('links in the ZIPs Forge writes (downloads, artifacts, worker transfers)', () => {
  it('keeps the links that lead inside as link entries, and leaves out the rest', async () => {
    const zip = path.join(base, 'out.zip');
    const result = await zipDirToFile(src, zip);
    const names = listZip(readFileSync(zip)).sort();
    expect(names).toEqual([
      'AGENTS.md',
      'CLAUDE.md',
      'apps/web/index.html',
      'apps/web/shared',
      'packages/shared/index.js',
    ]);
    expect(result.files).toBe(5);
  });

  it('round-trips through extraction: the project uploaded again has the same links', async () => {
    const zip = path.join(base, 'out.zip');
    await zipDirToFile(src, zip, { prefix: 'project/' });
    const target = path.join(base, 'projects', 'again');
    mkdirSync(path.dirname(target), { recursive: true });
    const extracted = await extractArchive(zip, { targetDir: target, workDir: path.join(base, 'work') });
    expect(extracted.links).toEqual([
      { path: 'CLAUDE.md', target: 'AGENTS.md' },
      { path: 'apps/web/shared', target: '../../packages/shared' },
    ]);
    expect(extracted.droppedLinks).toEqual([]);
    expect(readFileSync(path.join(target, 'CLAUDE.md'), 'utf8')).toBe('# agents\n');
  });

  it.skipIf(!hasUnzip)('is read as links by Info-ZIP unzip too', async () => {
    const zip = path.join(base, 'out.zip');
    await zipDirToFile(src, zip);
    const out = path.join(base, 'unzipped');
    execFileSync('unzip', ['-q', zip, '-d', out]);
    expect(lstatSync(path.join(out, 'CLAUDE.md')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(out, 'apps/web/shared'))).toBe('../../packages/shared');
    expect(readFileSync(path.join(out, 'apps/web/shared/index.js'), 'utf8')).toContain('shared = 1');
  });
});
