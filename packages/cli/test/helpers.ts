import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cleanEnv } from '@forge/testing';
import { assertBuilt } from './global-setup.ts';

// Also checked here so a run without the globalSetup wiring still fails fast and says why.
assertBuilt();

export const REPO = resolve(import.meta.dirname, '../../..');
export const FORGE_BIN = join(REPO, 'packages/cli/bin/forge.js');
/** Upper bound for one forge invocation; daemon start waits up to 15 s, stop up to 12 s. */
const RUN_TIMEOUT_MS = 40_000;

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A killed daemon whose parent is gone may linger as a zombie: that is dead too.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
};

/**
 * A temporary FORGE_HOME and working directory for one test (or one file). Every daemon it may have
 * started is stopped by `dispose`, even when the test failed halfway.
 */
export class Sandbox {
  private readonly pids = new Set<number>();
  private readonly children = new Set<ChildProcess>();

  private constructor(
    readonly home: string,
    readonly cwd: string,
  ) {}

  static async create(): Promise<Sandbox> {
    const home = await mkdtemp(join(tmpdir(), 'forge-cli-home-'));
    const cwd = await mkdtemp(join(tmpdir(), 'forge-cli-cwd-'));
    return new Sandbox(home, cwd);
  }

  /** A sandbox whose daemon is running (`forge daemon start`); throws with its stderr when it is not. */
  static async withDaemon(): Promise<Sandbox> {
    const sandbox = await Sandbox.create();
    const start = await sandbox.run(['daemon', 'start']);
    if (start.code !== 0) {
      await sandbox.dispose();
      throw new Error(`daemon start failed:\n${start.stderr}`);
    }
    return sandbox;
  }

  /** `run` with `input` on stdin (passwords, code phrases). */
  runWithStdin(args: string[], input: string): Promise<RunResult> {
    return this.run(args, {}, input);
  }

  get stateFile(): string {
    return join(this.home, 'daemon.json');
  }

  env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return cleanEnv({ FORGE_HOME: this.home, FORGE_PORT: '0', ...extra });
  }

  /** The daemon named by daemon.json, remembered so dispose can kill it if stop fails. */
  state(): { pid: number; url: string; port: number } | undefined {
    if (!existsSync(this.stateFile)) return undefined;
    const state = JSON.parse(readFileSync(this.stateFile, 'utf8')) as {
      pid: number;
      url: string;
      port: number;
    };
    this.pids.add(state.pid);
    return state;
  }

  /** A long-running forge (daemon run, logs -f); killed by dispose if still running. */
  spawn(args: string[], env: NodeJS.ProcessEnv = {}, stdin: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
    const child = spawn(process.execPath, [FORGE_BIN, ...args], {
      cwd: this.cwd,
      env: this.env(env),
      stdio: [stdin, 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) if (stream) record(stream);
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  /** Run forge to completion; `input` is written to its stdin (which is then not a TTY). */
  run(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<RunResult> {
    const child = this.spawn(args, env, input === undefined ? 'ignore' : 'pipe');
    if (input !== undefined) child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new Error(`forge ${args.join(' ')} did not finish in ${RUN_TIMEOUT_MS} ms\n${stdout}\n${stderr}`),
        );
      }, RUN_TIMEOUT_MS);
      child.once('error', reject);
      child.once('close', (code) => {
        clearTimeout(timer);
        this.state();
        resolvePromise({ code, stdout, stderr });
      });
    });
  }

  async dispose(): Promise<void> {
    for (const child of this.children) child.kill('SIGKILL');
    this.state();
    if (existsSync(this.stateFile)) await this.run(['daemon', 'stop']).catch(() => undefined);
    for (const pid of this.pids) {
      if (isAlive(pid)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    }
    await rm(this.home, { recursive: true, force: true });
    await rm(this.cwd, { recursive: true, force: true });
  }
}

/** Everything a spawned forge wrote on each of its streams, from its first byte. */
const transcripts = new WeakMap<NodeJS.ReadableStream, { text: string }>();

function record(stream: NodeJS.ReadableStream): void {
  const transcript = { text: '' };
  transcripts.set(stream, transcript);
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (transcript.text += chunk));
}

/**
 * Resolve with the text seen so far once `pattern` appears on the stream: in everything the
 * process wrote since it started, so a line printed before the test began to wait counts too.
 */
export function waitForOutput(
  stream: NodeJS.ReadableStream | null,
  pattern: RegExp,
  timeoutMs = 20_000,
): Promise<string> {
  if (!stream) return Promise.reject(new Error('stream is not piped'));
  const transcript = transcripts.get(stream);
  if (!transcript) return Promise.reject(new Error('stream is not one of a Sandbox-spawned forge'));
  return new Promise((resolvePromise, reject) => {
    const check = () => {
      if (!pattern.test(transcript.text)) return;
      cleanup();
      resolvePromise(transcript.text);
    };
    const onEnd = () => {
      cleanup();
      reject(new Error(`stream ended before ${pattern}; saw:\n${transcript.text}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no ${pattern} within ${timeoutMs} ms; saw:\n${transcript.text}`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      stream.off('data', check);
      stream.off('end', onEnd);
    };
    // Registered after the recorder: by the time `check` runs, the chunk is in the transcript.
    stream.on('data', check);
    stream.on('end', onEnd);
    check();
  });
}

/** Resolve with the exit code once the child exits. */
export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolvePromise) => child.once('exit', (code) => resolvePromise(code)));
}

/** A loopback port that nothing listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
