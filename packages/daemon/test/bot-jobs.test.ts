import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BotInfo, Build, BuildLogsResponse, UploadResult } from '@forge/shared';
import { cleanEnv } from '@forge/testing';
import { makeZip, upload, watch, ZERO_DEP_BUILD } from './build-helpers.ts';
import { cleanup, startTestApp, tempDir, type TestApp } from './helpers.ts';

const run = promisify(execFile);
const FORGE_BIN = path.resolve(import.meta.dirname, '../../cli/bin/forge.js');

afterEach(cleanup);

const json = async <T>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T;
const press = (app: TestApp, button: 'build' | 'fix', botName: string) =>
  fetch(`${app.url}/api/bots/${button}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ botName }),
  });
const card = async (app: TestApp, name: string): Promise<BotInfo> =>
  (await json<BotInfo[]>(fetch(`${app.url}/api/bots`))).find((b) => b.name === name)!;
/** The built CLI against this app, from a HOME of its own, without colour. */
async function forge(
  app: TestApp,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const cwd = tempDir('forge-cli-');
  const child = await run(process.execPath, [FORGE_BIN, ...args, '--url', app.url], {
    cwd,
    env: cleanEnv({ HOME: cwd, NO_COLOR: '1' }),
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  );
  return child;
}
const buildCount = async (app: TestApp): Promise<number> =>
  (await json<Build[]>(fetch(`${app.url}/api/builds?limit=100`))).length;

async function built(app: TestApp, live: Awaited<ReturnType<typeof watch>>, name: string, files: object) {
  const result = await json<UploadResult>(
    upload(app, makeZip(`${name}.zip`, files as Record<string, string>)),
  );
  return live.finished(result.buildId!, 60_000);
}

/** Set for one app: the env LogBot's schedule is read from when the app is created. */
function withEnv(vars: Record<string, string>): void {
  let before: Record<string, string | undefined> = {};
  beforeEach(() => {
    before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    Object.assign(process.env, vars);
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
}

/** `npm run build` imports ./Page.mjs; the file is page.mjs: RepairBot's FIX_IMPORT_CASE repairs it. */
const CASE_MISMATCH = {
  'package.json': JSON.stringify({
    name: 'case-app',
    version: '1.0.0',
    scripts: { build: 'node build.mjs' },
  }),
  'build.mjs': [
    "import fs from 'node:fs';",
    "import { page } from './Page.mjs';",
    "fs.mkdirSync('dist', { recursive: true });",
    "fs.writeFileSync('dist/index.html', page());",
    '',
  ].join('\n'),
  'page.mjs': "export const page = () => '<!doctype html><title>ok</title><h1>repaired</h1>';\n",
};

describe("each bot card's Build and Fix run that bot's own job", () => {
  it('IntegrationBot integrates the last success and CacheBot verifies and evicts, without a rebuild', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const ok = await built(app, live, 'zero', ZERO_DEP_BUILD);
    expect(ok.status).toBe('succeeded');
    const builds = await buildCount(app);

    const integrate = await json<{ message: string }>(press(app, 'build', 'IntegrationBot'));
    expect(integrate.message).toBe(`IntegrationBot integrated zero (build ${ok.id}) at /apps/zero.`);
    const apps = await json<Array<{ name: string }>>(fetch(`${app.url}/api/apps`));
    expect(apps.map((a) => a.name)).toContain('zero');
    expect((await card(app, 'IntegrationBot')).lastJob).toMatchObject({ label: 'integrate zero', ok: true });

    const verify = await json<{ message: string }>(press(app, 'build', 'CacheBot'));
    expect(verify.message).toBe(
      'Verified 1 stored output: 1 fresh, 0 stale, 0 missing; evicted 0 stale installs.',
    );
    expect((await card(app, 'CacheBot')).lastJob).toMatchObject({
      label: 'verify caches',
      ok: true,
      summary: verify.message,
    });

    // A stale install kept aside is evicted; the source changed since the output is reported stale.
    const kept = path.join(app.home, 'deps', 'zero', 'node_modules');
    fs.mkdirSync(kept, { recursive: true });
    fs.writeFileSync(path.join(kept, '.forge-install-key'), 'an old key');
    fs.appendFileSync(path.join(app.home, 'projects', 'zero', 'build.js'), '\n// edited\n');
    const again = await json<{ message: string }>(press(app, 'build', 'CacheBot'));
    expect(again.message).toBe(
      'Verified 1 stored output: 0 fresh, 1 stale, 0 missing; evicted 1 stale install.',
    );
    expect(fs.existsSync(kept)).toBe(false);

    fs.mkdirSync(kept, { recursive: true });
    const evict = await json<{ message: string }>(press(app, 'fix', 'CacheBot'));
    expect(evict.message).toBe('Evicted the install kept aside of zero: its next build installs afresh.');
    expect(fs.existsSync(path.join(app.home, 'deps', 'zero'))).toBe(false);

    expect(await buildCount(app)).toBe(builds);
  });

  it('RepairBot repairs the last failed build (then rebuilds it); after a success it has nothing to repair', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    expect(
      (
        await fetch(`${app.url}/api/settings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ autoRepair: false }),
        })
      ).status,
    ).toBe(200);
    const failed = await built(app, live, 'case-app', CASE_MISMATCH);
    expect(failed.status).toBe('failed');

    const res = await press(app, 'build', 'RepairBot');
    expect(res.status).toBe(200);
    const { message } = await json<{ message: string }>(res);
    const buildId = /Build (b\d+-\w+)/.exec(message)?.[1];
    expect(buildId, message).toBeTruthy();
    const rebuilt = await live.finished(buildId!, 60_000);
    expect(rebuilt.status).toBe('succeeded');
    expect(rebuilt.repairs).toEqual([
      expect.objectContaining({ code: 'FIX_IMPORT_CASE', status: 'applied' }),
    ]);
    expect(fs.readFileSync(path.join(app.home, 'projects', 'case-app', 'build.mjs'), 'utf8')).toContain(
      "from './page.mjs'",
    );
    expect((await card(app, 'RepairBot')).lastJob).toMatchObject({ label: 'repair case-app', ok: true });

    const nothing = await press(app, 'fix', 'RepairBot');
    expect(nothing.status).toBe(409);
    expect(await json(nothing)).toMatchObject({
      code: 'NOTHING_TO_FIX',
      error: `The last build of case-app (${rebuilt.id}) is succeeded: there is nothing to repair.`,
    });
    // Nothing to repair is an answer, not a failure of RepairBot.
    expect((await card(app, 'RepairBot')).status).toBe('active');
  });

  it('PackageBot packages the platform into an archive, as package-platform does', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const { message } = await json<{ message: string }>(press(app, 'build', 'PackageBot'));
    expect(message).toBe('PackageBot: Build triggered.');
    await live.until(
      (m) => m.type === 'bot-status' && m.botName === 'PackageBot' && m.status !== 'building',
      240_000,
    );
    const packageBot = await card(app, 'PackageBot');
    expect(packageBot.lastJob).toMatchObject({ label: 'package the platform', ok: true });
    const name = /^Build complete: (\S+\.zip)/.exec(packageBot.lastJob!.summary ?? '')?.[1];
    expect(name, packageBot.lastJob!.summary ?? '').toBeTruthy();
    expect(fs.statSync(path.join(app.home, 'packages', name!)).size).toBeGreaterThan(0);
    expect(await buildCount(app)).toBe(0);
  }, 300_000);

  it('answers a disabled button with the reason, and posts no build', async () => {
    const app = await startTestApp();
    const ui = await press(app, 'build', 'UiBot');
    expect(ui.status).toBe(409);
    expect(await json(ui)).toMatchObject({
      code: 'BOT_HAS_NO_JOB',
      error:
        "UiBot has no build job to run: checking the output is a step of every build: use BuildBot's Build (or forge build).",
    });
    const chat = await press(app, 'fix', 'ChatBot');
    expect(chat.status).toBe(409);
    expect(await json(chat)).toMatchObject({
      code: 'BOT_HAS_NO_JOB',
      error: 'ChatBot has no fix job to run: it works from the Console chat (or forge chat).',
    });
    expect(await buildCount(app)).toBe(0);
  });
});

describe("LogBot's job", () => {
  withEnv({ FORGE_LOG_KEEP_BUILDS: '1', FORGE_LOG_MAX_BYTES: '100', FORGE_LOG_ROTATE_MS: '0' });

  it("rotates daemon.log and moves old builds' logs to files, where HTTP and forge logs still read them", async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const first = await built(app, live, 'zero', ZERO_DEP_BUILD);
    const second = await built(app, live, 'zero', ZERO_DEP_BUILD);
    expect(second.status).toBe('succeeded');
    const daemonLog = path.join(app.home, 'logs', 'daemon.log');
    fs.mkdirSync(path.dirname(daemonLog), { recursive: true });
    fs.writeFileSync(daemonLog, 'x'.repeat(2048));

    /** What a user reads of a build's log: every page over HTTP, and `forge logs` (text, --json, -f). */
    const readers = async (id: string) => ({
      all: await json<BuildLogsResponse>(fetch(`${app.url}/api/builds/${id}/logs?limit=1000`)),
      paged: [
        await json<BuildLogsResponse>(fetch(`${app.url}/api/builds/${id}/logs?limit=3`)),
        await json<BuildLogsResponse>(fetch(`${app.url}/api/builds/${id}/logs?after=3&limit=3`)),
      ],
      text: await forge(app, ['logs', id]),
      json: await forge(app, ['logs', id, '--json']),
      follow: await forge(app, ['logs', id, '-f', '--json']),
    });
    const before = await readers(first.id);
    expect(before.all.entries.length).toBeGreaterThan(3);
    expect(before.all.entries.map((e) => e.message)).toContain('built 2 files');
    expect(before.text.stdout).toContain('built 2 files');
    expect(before.json.stdout.trim().split('\n')).toHaveLength(before.all.entries.length);

    const { message } = await json<{ message: string }>(press(app, 'build', 'LogBot'));
    expect(message).toMatch(
      /^LogBot: rotated daemon\.log \(2 KB\); exported 1 old build log \(\d+ lines\) to logs\/builds\.$/,
    );
    expect(fs.readFileSync(`${daemonLog}.1`, 'utf8')).toHaveLength(2048);
    expect(fs.statSync(daemonLog).size).toBe(0);
    const exported = fs.readFileSync(path.join(app.home, 'logs', 'builds', `${first.id}.log`), 'utf8');
    expect(exported).toContain('built 2 files');
    // The project's last build keeps its lines in the store.
    expect(fs.existsSync(path.join(app.home, 'logs', 'builds', `${second.id}.log`))).toBe(false);

    expect(await readers(first.id)).toEqual(before);
    expect((await card(app, 'LogBot')).lastJob).toMatchObject({
      label: 'rotate logs',
      ok: true,
      summary: message,
    });
    // Nothing left to move: a second press exports nothing and changes no reader's answer.
    const again = await json<{ message: string }>(press(app, 'build', 'LogBot'));
    expect(again.message).toMatch(/no old build log to export\.$/);
    expect((await readers(first.id)).all).toEqual(before.all);
  });
});

describe("LogBot's recurring job", () => {
  withEnv({ FORGE_LOG_ROTATE_MS: '100' });

  it('runs on its schedule and its card shows the result', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    await live.until(
      (m) => m.type === 'bot-status' && m.botName === 'LogBot' && m.status === 'active',
      20_000,
    );
    const logBot = await card(app, 'LogBot');
    expect(logBot.jobsRun).toBeGreaterThan(0);
    expect(logBot.lastJob).toMatchObject({ label: 'scheduled log rotation', ok: true });
    expect(logBot.lastJob!.summary).toMatch(
      /^LogBot: daemon\.log is \d+ (B|KB), under 10 MB; no old build log to export\.$/,
    );
    expect(await buildCount(app)).toBe(0);
  });
});
