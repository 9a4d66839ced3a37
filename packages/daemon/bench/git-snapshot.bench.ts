/**
 * pnpm bench git: the build's git repository of the upload (capabilities/exec/git-snapshot.ts) on a
 * 5,000-file project (20 MB of source), against what a developer would type: `git init && git add
 * -A && git commit`. Median of 5, fresh .git each time; prints the sizes of .git too.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitSnapshot } from '../src/capabilities/exec/git-snapshot.ts';

const FILES = 5_000;
const RUNS = 5;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-bench-git-'));
const env = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@localhost',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@localhost',
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const size = (): string =>
  execFileSync('du', ['-sk', path.join(dir, '.git')], { encoding: 'utf8' }).split('\t')[0] ?? '?';

try {
  for (let i = 0; i < FILES; i++) {
    const folder = path.join(dir, 'src', `m${i % 100}`);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `f${i}.ts`), `export const v${i} = ${i};\n// ${'x'.repeat(4000)}\n`);
  }
  const byHand: number[] = [];
  const forge: number[] = [];
  let handKb = '';
  let forgeKb = '';
  for (let run = 0; run < RUNS; run++) {
    fs.rmSync(path.join(dir, '.git'), { recursive: true, force: true });
    let t = performance.now();
    execFileSync('sh', ['-c', 'git init -q && git add -A && git commit -q -m snapshot --no-verify'], {
      cwd: dir,
      env,
    });
    byHand.push(performance.now() - t);
    handKb = size();
    fs.rmSync(path.join(dir, '.git'), { recursive: true, force: true });
    t = performance.now();
    const made = await gitSnapshot(dir);
    if (!made.made) throw new Error(made.reason);
    forge.push(performance.now() - t);
    forgeKb = size();
  }
  const a = median(byHand);
  const b = median(forge);
  console.log('| work (5,000 files, 20 MB) | git add + commit | Forge (fast-import) | ratio |');
  console.log('| --- | --- | --- | --- |');
  console.log(
    `| one-commit repository | ${Math.round(a)} ms (${handKb} KB) | ${Math.round(b)} ms (${forgeKb} KB) | ${(b / a).toFixed(2)} |`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
