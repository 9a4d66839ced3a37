import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand, type OutputLine, type RunCommandOptions } from './run-command.ts';
import { probeSandbox, sandboxAvailable } from './sandbox.ts';
import { eventually, killQuietly, makeTempDir, pidsWithArg } from '../../../test/support/temp-files.ts';

const available = await sandboxAvailable();
/** The daemon package, from where `--import tsx` resolves. */
const packageDir = resolve(import.meta.dirname, '../../..');

/** Waits for processes with `marker` in their arguments to go; returns (and kills) any left. */
async function allGone(marker: string): Promise<number[]> {
  await eventually(async () => (await pidsWithArg(marker)).length === 0);
  const left = await pidsWithArg(marker);
  killQuietly(left);
  return left;
}

describe.skipIf(!available)('runCommand with the bubblewrap sandbox', () => {
  let dir: string;
  let outside: string;
  const cleanups: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    const project = await makeTempDir('forge-sbx-');
    const other = await makeTempDir('forge-sbx-outside-');
    dir = project.dir;
    outside = other.dir;
    cleanups.push(project.cleanup, other.cleanup);
  });
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((fn) => fn()));
  });

  async function run(script: string, options: Partial<RunCommandOptions> = {}) {
    const lines: OutputLine[] = [];
    const result = await runCommand({
      argv: ['sh', '-c', script],
      cwd: dir,
      timeoutMs: 10_000,
      sandbox: true,
      onLine: (line) => lines.push(line),
      ...options,
    });
    return { result, text: lines.map((l) => l.text) };
  }

  // Another /tmp dir is invisible (private /tmp); $HOME is visible but read-only.
  it('lets the command write in its cwd but nowhere else', async () => {
    const { result, text } = await run(
      `echo built > out.txt && echo inside-ok; ` +
        `if (echo x > '${outside}/escape.txt') 2>/dev/null; then echo outside-written; else echo outside-refused; fi; ` +
        `if (echo x > "$HOME/.forge-sandbox-probe") 2>/dev/null; then echo home-written; else echo home-refused; fi`,
    );
    expect(result).toMatchObject({ outcome: 'succeeded', sandboxed: true });
    expect(text).toEqual(['inside-ok', 'outside-refused', 'home-refused']);
    expect(existsSync(join(dir, 'out.txt'))).toBe(true);
    expect(existsSync(join(outside, 'escape.txt'))).toBe(false);
  });

  it('fails a command whose only job is to write outside cwd', async () => {
    const { result } = await run(`echo x > '${outside}/escape.txt'`);
    expect(result).toMatchObject({ outcome: 'failed', sandboxed: true });
    expect(existsSync(join(outside, 'escape.txt'))).toBe(false);
  });

  it('gives a private, writable /tmp and masks hidden directories', async () => {
    const secretDir = join(outside, 'forge-home');
    await mkdir(secretDir);
    await writeFile(join(secretDir, 'config.json'), '{"accessToken":"secret"}');
    const marker = `forge-private-tmp-${process.pid}-${Date.now()}`;
    const { result, text } = await run(
      `echo scratch > /tmp/${marker} && echo tmp-ok; echo "TMPDIR=$TMPDIR"; ls -A '${secretDir}' | wc -l`,
      { sandbox: { hidden: [secretDir] } },
    );
    expect(result.outcome).toBe('succeeded');
    expect(text).toEqual(['tmp-ok', 'TMPDIR=/tmp', '0']);
    expect(existsSync(join('/tmp', marker))).toBe(false);
  });

  it('still kills the whole tree on timeout, even a grandchild that left the group', async () => {
    // The pid namespace means printed pids are not ours: find the processes by a unique argument.
    const marker = `${(Date.now() % 1000) + 1000}.${process.pid}`;
    const { result } = await run(`setsid sleep ${marker} & sleep ${marker} & echo started; sleep ${marker}`, {
      timeoutMs: 1_000,
    });
    expect(result).toMatchObject({ outcome: 'timed-out', sandboxed: true });
    expect(await allGone(`sleep ${marker}`)).toEqual([]);
  });

  it('kills what a command left behind when it exits normally, even outside its group', async () => {
    const marker = `${(Date.now() % 1000) + 2000}.${process.pid}`;
    // The escapee touches a file once it has its own session, so the main shell cannot exit earlier.
    const { result, text } = await run(
      `setsid sh -c 'touch escaped; exec sleep ${marker}' </dev/null >/dev/null 2>&1 & ` +
        `sleep ${marker} >/dev/null 2>&1 & ` +
        `while [ ! -e escaped ]; do sleep 0.01; done; echo started`,
    );
    expect(result).toMatchObject({ outcome: 'succeeded', sandboxed: true });
    expect(text).toEqual(['started']);
    expect(await allGone(`sleep ${marker}`)).toEqual([]);
  });

  it('cancels a sandboxed command at once: the namespace goes with bwrap, no grace applies', async () => {
    const controller = new AbortController();
    const marker = `${(Date.now() % 1000) + 3000}.${process.pid}`;
    const { result } = await run(`trap '' TERM; echo ready; sleep ${marker}`, {
      signal: controller.signal,
      killGraceMs: 5_000,
      onLine: () => controller.abort('superseded'),
    });
    expect(result).toMatchObject({ outcome: 'cancelled', cancelReason: 'superseded', sandboxed: true });
    expect(result.durationMs).toBeLessThan(3_000);
    expect(await allGone(`sleep ${marker}`)).toEqual([]);
  });

  it('takes the sandboxed tree down when the daemon itself is SIGKILLed', async () => {
    const marker = `${(Date.now() % 1000) + 4000}.${process.pid}`;
    const daemon = join(dir, 'fake-daemon.mts');
    await writeFile(
      daemon,
      `import { runCommand } from ${JSON.stringify(join(import.meta.dirname, 'run-command.ts'))};
       await runCommand({ argv: ['sh', '-c', 'sleep ${marker} & echo started; sleep ${marker}'], cwd: ${JSON.stringify(dir)},
         timeoutMs: 60_000, sandbox: true, onLine: (line) => console.log(line.text) });`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', daemon], {
      cwd: packageDir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const first = await Promise.race([
        once(child.stdout, 'data').then(([chunk]) => String(chunk)),
        once(child, 'exit').then(([code]) => `fake daemon exited with ${code}`),
      ]);
      expect(first).toContain('started');
      expect(await pidsWithArg(`sleep ${marker}`)).not.toEqual([]);
      child.kill('SIGKILL');
      await once(child, 'exit');
      expect(await allGone(`sleep ${marker}`)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('runCommand without the sandbox', () => {
  it('says it ran unsandboxed when not asked to sandbox', async () => {
    const { dir, cleanup } = await makeTempDir();
    try {
      const result = await runCommand({ argv: ['true'], cwd: dir, timeoutMs: 5_000, onLine: () => {} });
      expect(result).toMatchObject({ outcome: 'succeeded', sandboxed: false });
    } finally {
      await cleanup();
    }
  });
});

describe.skipIf(!available)('the sandbox of an install with a shared store', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((fn) => fn()));
  });

  /** A FORGE_HOME-like tree: projects/app (cwd), projects/other, store/, toolchains/, a database file. */
  async function home() {
    const { dir, cleanup } = await makeTempDir('forge-sbx-home-');
    cleanups.push(cleanup);
    for (const sub of ['projects/app', 'projects/other', 'store', 'toolchains/tool@1/bin']) {
      await mkdir(join(dir, sub), { recursive: true });
    }
    await writeFile(join(dir, 'store', 'file.js'), 'module.exports = 1;\n');
    await writeFile(join(dir, 'forge.db'), 'db');
    await writeFile(join(dir, 'toolchains/tool@1/bin/tool'), '#!/bin/sh\necho tool-ran\n', { mode: 0o755 });
    return dir;
  }

  const sh = async (root: string, script: string, options: Partial<RunCommandOptions> = {}) => {
    const lines: string[] = [];
    const result = await runCommand({
      argv: ['sh', '-c', script],
      cwd: join(root, 'projects/app'),
      timeoutMs: 10_000,
      onLine: (line) => lines.push(line.text),
      ...options,
    });
    return { result, lines };
  };
  const attempt = (what: string, command: string) =>
    `if (${command}) 2>/dev/null; then echo ${what}-ok; else echo ${what}-refused; fi`;

  it('hard-links from the store into the project, and writes nothing else of the home', async () => {
    const root = await home();
    const script = [
      attempt('link', `ln '${root}/store/file.js' linked.js`),
      attempt('store', `echo x > '${root}/store/new.js'`),
      attempt('other-project', `echo x > '${root}/projects/other/x'`),
      attempt('db', `echo x > '${root}/forge.db'`),
      attempt('toolchains', `echo x > '${root}/toolchains/tool@1/x'`),
    ].join('; ');
    const { result, lines } = await sh(root, script, {
      sandbox: { writable: [join(root, 'store')], linkedRoot: root },
    });
    expect(result).toMatchObject({ outcome: 'succeeded', sandboxed: true });
    expect(lines).toEqual([
      'link-ok',
      'store-ok',
      'other-project-refused',
      'db-refused',
      'toolchains-refused',
    ]);

    // Without one mount for both, link(2) fails across the two binds (EXDEV).
    const apart = await sh(root, attempt('link', `ln '${root}/store/file.js' apart.js`), {
      sandbox: { writable: [join(root, 'store')] },
    });
    expect(apart.lines).toEqual(['link-refused']);
  });

  it('keeps a PATH folder under /tmp (a toolchain of a FORGE_HOME there) visible, read-only', async () => {
    const root = await home();
    const bin = join(root, 'toolchains/tool@1/bin');
    const { result, lines } = await sh(root, `tool; ${attempt('write', `echo x > '${bin}/y'`)}`, {
      sandbox: true,
      env: { PATH: `${bin}:${process.env.PATH}` },
    });
    expect(result.outcome).toBe('succeeded');
    expect(lines).toEqual(['tool-ran', 'write-refused']);
  });

  /** A folder directly in /tmp holding the only commands on PATH (a machine set up with a trimmed PATH). */
  async function binInTmp() {
    const dir = await mkdtemp('/tmp/forge-sbx-bin-');
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await symlink('/bin/sh', join(dir, 'sh'));
    await symlink('/bin/true', join(dir, 'true'));
    await symlink('/usr/bin/bwrap', join(dir, 'bwrap'));
    await writeFile(join(dir, 'tool'), '#!/bin/sh\necho tool-ran\n', { mode: 0o755 });
    return dir;
  }

  it('keeps a PATH folder directly in /tmp visible, read-only, and the rest of /tmp private', async () => {
    const root = await home();
    const bin = await binInTmp();
    const sibling = await mkdtemp('/tmp/forge-sbx-sibling-');
    cleanups.push(() => rm(sibling, { recursive: true, force: true }));
    const { result, lines } = await sh(
      root,
      `tool; ${attempt('write', `echo x > '${bin}/y'`)}; ${attempt('other', `test -d '${sibling}'`)}`,
      { sandbox: true, env: { PATH: bin } },
    );
    expect(result.outcome).toBe('succeeded');
    expect(lines).toEqual(['tool-ran', 'write-refused', 'other-refused']);
  });

  it('finds the sandbox available when every PATH folder is directly in /tmp', async () => {
    const bin = await binInTmp();
    expect(await probeSandbox({ PATH: bin })).toBe(true);
  });
});
