import { execFile, spawn } from 'node:child_process';
import { lstat, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { once } from 'node:events';

const run = promisify(execFile);

/**
 * A git repository of the uploaded files for a build that reads its history (`git rev-parse HEAD`,
 * `git log -1 --format=%cd`, last-updated dates): a ZIP carries no .git. One commit on `main`, by
 * Forge <forge@localhost>, dated by the newest file, of what `git add -A` would take (the project's
 * .gitignore honoured, node_modules never). It lives where a clone's would, at the project root
 * (.git), which the source hash, the file tree, downloads, the scan and the watcher already leave out.
 *
 * Written with `git fast-import` (one pack) rather than `git add` (a loose object per file): about
 * six times faster on a 5,000-file project (docs/performance.md). git runs outside the sandbox with
 * no user or system configuration and no hooks, so nothing of the project's runs here.
 */

/** The first line of .git/description in a repository Forge made (and may replace). */
export const SNAPSHOT_MARK = 'Forge: a snapshot of the uploaded files, for builds that read their history';
const AUTHOR = 'Forge <forge@localhost>';
/** Files read at once while git takes the previous ones. */
const READ_BATCH = 64;
const NEWLINE = Buffer.from('\n');
const MESSAGE = 'Snapshot of the uploaded files\n\nMade by Forge: the upload carried no git history.\n';

export type GitSnapshot =
  | { made: true; commit: string; files: number; date: Date; durationMs: number }
  | { made: false; reason: string };

/** git with no configuration but the repository's own, in `cwd`. */
function gitEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
  };
}

const git = (cwd: string, args: string[], signal?: AbortSignal) =>
  run('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'gc.auto=0', ...args], {
    cwd,
    env: gitEnv(),
    maxBuffer: 256 * 1024 * 1024,
    ...(signal ? { signal } : {}),
  });

/** A path as fast-import takes it: quoted (C style) when it has a quote, backslash, newline or leading quote. */
const quotePath = (file: string): string => (/["\\\n]/.test(file) ? JSON.stringify(file) : file);

/**
 * Make (or make again) the snapshot repository of `projectDir`. A `.git` that Forge did not make is
 * left alone (said in `reason`). Never throws for the project's sake: a failure is `made: false`.
 */
export async function gitSnapshot(projectDir: string, signal?: AbortSignal): Promise<GitSnapshot> {
  const started = performance.now();
  const dotGit = path.join(projectDir, '.git');
  const existing = await lstat(dotGit).catch(() => null);
  if (existing) {
    const description = await readFile(path.join(dotGit, 'description'), 'utf8').catch(() => '');
    if (!existing.isDirectory() || !description.startsWith(SNAPSHOT_MARK)) {
      return { made: false, reason: 'the project has a .git of its own: it is used as it is' };
    }
    await rm(dotGit, { recursive: true, force: true });
  }
  try {
    await git(projectDir, ['init', '-q'], signal);
    await git(projectDir, ['symbolic-ref', 'HEAD', 'refs/heads/main'], signal);
    await writeFile(path.join(dotGit, 'description'), `${SNAPSHOT_MARK}\n`);
    await writeFile(path.join(dotGit, 'info', 'exclude'), 'node_modules/\n');
    const listed = await git(projectDir, ['ls-files', '-o', '--exclude-standard', '-z'], signal);
    const files = listed.stdout.split('\0').filter(Boolean);
    const newest = await importCommit(projectDir, files, signal);
    // The index, so that `git status` and `git describe --dirty` see a clean tree.
    await git(projectDir, ['reset', '-q'], signal);
    const head = await git(projectDir, ['rev-parse', 'HEAD'], signal);
    return {
      made: true,
      commit: head.stdout.trim(),
      files: files.length,
      date: newest,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    await rm(dotGit, { recursive: true, force: true }).catch(() => undefined);
    return { made: false, reason: `git could not make it: ${(error as Error).message.split('\n')[0]}` };
  }
}

/** Stream every file into `git fast-import` as one commit on main; returns its date (the newest file's). */
async function importCommit(
  projectDir: string,
  files: readonly string[],
  signal?: AbortSignal,
): Promise<Date> {
  const child = spawn('git', ['fast-import', '--quiet', '--done'], {
    cwd: projectDir,
    env: gitEnv(),
    stdio: ['pipe', 'ignore', 'pipe'],
    ...(signal ? { signal } : {}),
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A git that dies mid-stream (EPIPE) is reported by its exit, below.
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const failed = exited.then((code) => {
    throw new Error(`git fast-import stopped (code ${code}): ${stderr.trim()}`);
  });
  failed.catch(() => undefined);
  const write = async (data: string | Buffer): Promise<void> => {
    if (!child.stdin.write(data)) await Promise.race([once(child.stdin, 'drain'), failed]);
  };
  let newest = 0;
  const entries: string[] = [];
  try {
    // Read a batch at once (the disk works while git writes), written in order.
    for (let start = 0; start < files.length; start += READ_BATCH) {
      const batch = await Promise.all(
        files.slice(start, start + READ_BATCH).map(async (file) => {
          const abs = path.join(projectDir, file);
          const info = await lstat(abs).catch(() => null);
          // Gone since it was listed (the install rewrote it), or not a file git takes.
          if (!info || !(info.isFile() || info.isSymbolicLink())) return null;
          const data = info.isSymbolicLink() ? Buffer.from(await readlink(abs)) : await readFile(abs);
          const mode = info.isSymbolicLink() ? '120000' : info.mode & 0o111 ? '100755' : '100644';
          // A link's own time is when it was made, not when its content changed.
          return { file, data, mode, mtimeMs: info.isSymbolicLink() ? 0 : info.mtimeMs };
        }),
      );
      for (const item of batch) {
        if (!item) continue;
        const mark = entries.length + 1;
        newest = Math.max(newest, item.mtimeMs);
        await write(
          Buffer.concat([Buffer.from(`blob\nmark :${mark}\ndata ${item.data.length}\n`), item.data, NEWLINE]),
        );
        entries.push(`M ${item.mode} :${mark} ${quotePath(item.file)}\n`);
      }
    }
    const when = newest > 0 ? newest : Date.now();
    const stamp = `${Math.floor(when / 1000)} +0000`;
    await write(
      `commit refs/heads/main\nauthor ${AUTHOR} ${stamp}\ncommitter ${AUTHOR} ${stamp}\ndata ${Buffer.byteLength(MESSAGE)}\n${MESSAGE}\n`,
    );
    await write(entries.join(''));
    await write('\ndone\n');
    child.stdin.end();
    const code = await exited;
    if (code !== 0) throw new Error(`git fast-import exited with code ${code}: ${stderr.trim()}`);
    return new Date(Math.floor(when / 1000) * 1000);
  } catch (error) {
    child.kill('SIGKILL');
    await exited.catch(() => undefined);
    throw error;
  }
}
