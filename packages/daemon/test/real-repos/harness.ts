import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Blueprint, Build, BuildLogsResponse, BuildStatus, UploadResult } from '@forge/shared';
import { cleanEnv, type ProjectFiles } from '@forge/testing';
import { cleanup, tempDir, userPackageCaches, type TestApp } from '../helpers.ts';
import { makeZip, upload, watch } from '../build-helpers.ts';
import { spawnDaemon, type DaemonProcess } from '../process-helpers.ts';

/**
 * What every real-repos file shares: one spawned daemon with its own FORGE_HOME and the user's package
 * caches, projects uploaded up front and awaited to their end, the built `forge` CLI run against it,
 * and a failure message that carries the build's error and its last log lines.
 */

const REPO = path.resolve(import.meta.dirname, '../../../..');
export const FORGE_BIN = path.join(REPO, 'packages/cli/bin/forge.js');
const FORGE_DIST = path.join(REPO, 'packages/cli/dist/forge.js');

export const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** A run of the built CLI, to its end. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RealDaemonOptions {
  /** Longest wait for one build, queue and installs included (cold npm cache, 2 busy cores). */
  buildTimeoutMs: number;
  /** Settings posted before any upload (POST /api/settings, one at a time). */
  settings?: Record<string, unknown>;
}

export class RealDaemon {
  private constructor(
    readonly process: DaemonProcess,
    readonly app: TestApp,
    /** FORGE_HOME. */
    readonly home: string,
    /** The daemon's cwd and HOME. */
    readonly userHome: string,
    private readonly live: Awaited<ReturnType<typeof watch>>,
    private readonly buildTimeoutMs: number,
  ) {}

  /** A daemon of its own for one test file (`name` names its temporary folders). */
  static async start(name: string, options: RealDaemonOptions): Promise<RealDaemon> {
    if (!fs.existsSync(FORGE_DIST)) throw new Error(`${FORGE_DIST} is missing: run pnpm build first.`);
    const home = tempDir(`forge-${name}-home-`);
    const userHome = tempDir(`forge-${name}-user-`);
    const child = spawnDaemon(['run', '--port', '0'], { home, cwd: userHome, env: userPackageCaches() });
    const app = { url: await child.url } as TestApp;
    for (const [key, value] of Object.entries(options.settings ?? {})) {
      const res = await fetch(`${app.url}/api/settings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ [key]: value }),
      });
      expect(res.status, `setting ${key}`).toBe(200);
    }
    return new RealDaemon(child, app, home, userHome, await watch(app), options.buildTimeoutMs);
  }

  get url(): string {
    return this.app.url;
  }

  /**
   * Uploads the project and resolves with its build once it ended. The promise is awaited by the
   * project's own test: a failure must not surface as an unhandled rejection before that.
   */
  build(zipName: string, files: ProjectFiles | Promise<ProjectFiles>): Promise<Build> {
    return this.buildZip(Promise.resolve(files).then((f) => makeZip(zipName, f)));
  }

  /** The same for a ZIP made by the test (an archive with links, a lockfile resolved first…). */
  buildZip(zip: string | Promise<string>): Promise<Build> {
    const build = (async () => {
      const zipPath = await zip;
      const res = await upload(this.app, zipPath).catch((err: unknown) => {
        throw new Error(
          `upload of ${path.basename(zipPath)} failed (${String(err)}): ${this.process.stderr().slice(-2000)}`,
        );
      });
      const result = (await res.json()) as UploadResult;
      if (res.status !== 200 || !result.buildId) {
        throw new Error(
          `upload of ${path.basename(zipPath)} answered ${res.status}: ${JSON.stringify(result)}`,
        );
      }
      return this.live.finished(result.buildId, this.buildTimeoutMs);
    })();
    build.catch(() => undefined);
    return build;
  }

  /**
   * The built CLI with `--url` of this daemon, run from a folder of its own that is also its HOME (no
   * user config of this machine reaches it), without colour.
   */
  forge(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
    const cwd = tempDir('forge-cli-');
    const run = new Promise<CliRun>((resolve, reject) => {
      const child = spawn(process.execPath, [FORGE_BIN, ...args, '--url', this.app.url], {
        cwd,
        env: cleanEnv({ HOME: cwd, NO_COLOR: '1', ...env }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
    run.catch(() => undefined);
    return run;
  }

  /** The build the CLI's `--json` answer names, as the daemon keeps it. */
  async buildOf(run: CliRun | Promise<CliRun>): Promise<Build> {
    const { code, stdout, stderr } = await run;
    let buildId: unknown;
    try {
      buildId = (JSON.parse(stdout) as { buildId?: unknown }).buildId;
    } catch {
      throw new Error(`forge exited ${code} without a JSON answer:\n${stdout}\n${stderr}`);
    }
    if (typeof buildId !== 'string')
      throw new Error(`forge exited ${code} naming no build:\n${stdout}\n${stderr}`);
    return this.record(buildId);
  }

  async record(buildId: string): Promise<Build> {
    return (await (await fetch(`${this.app.url}/api/builds/${buildId}`)).json()) as Build;
  }

  /** The build's log as `Bot: message` lines. */
  async logLines(build: Pick<Build, 'id'>): Promise<string[]> {
    return (await this.logEntries(build.id)).map((e) => `${e.botName}: ${e.message}`);
  }

  /** The build's log messages alone. */
  async messages(buildId: string): Promise<string[]> {
    return (await this.logEntries(buildId)).map((e) => e.message);
  }

  private async logEntries(buildId: string): Promise<BuildLogsResponse['entries']> {
    const res = await fetch(`${this.app.url}/api/builds/${buildId}/logs?limit=10000`);
    return ((await res.json()) as BuildLogsResponse).entries;
  }

  /** The build, once it is known to have ended as `status`; otherwise fail with its error and last log lines. */
  async ended(build: Build | Promise<Build>, status: BuildStatus = 'succeeded'): Promise<Build> {
    const done = await build;
    if (done.status !== status) {
      const tail = (await this.logLines(done)).slice(-40).join('\n');
      throw new Error(
        `${done.projectName} ${done.status} at ${done.stage}, not ${status}: ${JSON.stringify(done.error)}\n${tail}`,
      );
    }
    return done;
  }

  /** SIGTERM first, so the daemon stops the servers it runs; cleanup() SIGKILLs whatever is left. */
  async stop(): Promise<void> {
    const { child, exited } = this.process;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
    }
    await cleanup();
  }
}

/** The plan BlueprintBot made, whatever became of the build afterwards. */
export async function blueprintOf(build: Build | Promise<Build>): Promise<Blueprint> {
  const done = await build;
  if (!done.blueprint) throw new Error(`${done.projectName} has no plan: ${JSON.stringify(done.error)}`);
  return done.blueprint;
}

/** The last decision the plan made on `field` (a later one overrides an earlier). */
export const lastDecision = (bp: Blueprint | null | undefined, field: string) =>
  bp?.decisions.filter((d) => d.field === field).at(-1);

export async function get(url: string | URL): Promise<{ status: number; type: string; body: string }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
}

/** The page at `pathname` of the build's preview: 200, HTML, its text. */
export async function page(build: Build, pathname = '/'): Promise<string> {
  expect(build.previewUrl, `${build.projectName} has a preview`).toBeTruthy();
  const res = await get(new URL(pathname, build.previewUrl!));
  expect(res.status, pathname).toBe(200);
  expect(res.type, pathname).toMatch(/text\/html/);
  return res.body;
}
