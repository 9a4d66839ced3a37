import { afterEach, describe, expect, it } from 'vitest';
import { BROKEN_VERSIONS, npmLockfile } from '@forge/testing';
import { BuildDiff, type BrainReply, type ErrorBody, type UploadResult } from '@forge/shared';
import { makeZip, upload, watch, ZERO_DEP_BUILD } from './build-helpers.ts';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';

/**
 * "Why is it red now?" through a real daemon: a Vite app built green, then uploaded again with a
 * dependency bumped (package.json and a lockfile the real npm wrote) and a source file that no
 * longer parses. GET /api/builds/:id/diff names both, and says the error points at the file.
 */

afterEach(cleanup);

const NAME = 'why-red-app';

const manifest = (clsx: string) => ({
  name: NAME,
  private: true,
  version: '0.0.0',
  type: 'module',
  scripts: { build: 'vite build' },
  dependencies: { clsx },
  devDependencies: { vite: BROKEN_VERSIONS.vite },
});

const INDEX = `<!doctype html>
<html lang="en">
  <body>
    <div id="app"></div>
    <script type="module" src="/src/main.js"></script>
  </body>
</html>
`;

const GREEN_MAIN = `import clsx from 'clsx'

document.querySelector('#app').innerHTML = \`<h1 class="\${clsx('title', { lit: true })}">Hello</h1>\`
`;
/** The same file with a parenthesis left open on line 3 (the parser stops on line 4). */
const RED_MAIN = `import clsx from 'clsx'

const title = clsx('title', { lit: true }
document.querySelector('#app').innerHTML = \`<h1 class="\${title}">Hello again</h1>\`
`;

async function project(clsx: string, main: string) {
  const pkg = manifest(clsx);
  return {
    'package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'package-lock.json': await npmLockfile(pkg),
    'index.html': INDEX,
    'src/main.js': main,
    'src/util.js': 'export const unchanged = 1\n',
  };
}

async function buildOf(app: TestApp, live: Awaited<ReturnType<typeof watch>>, files: Record<string, string>) {
  const res = await upload(app, makeZip(`${NAME}.zip`, files));
  const { buildId } = (await res.json()) as UploadResult;
  return live.finished(buildId!, 300_000);
}

const post = (app: TestApp, route: string, body: unknown, cookie?: string) =>
  fetch(`${app.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });

async function setPhrases(app: TestApp): Promise<void> {
  expect((await post(app, '/api/brain/greeting', { greeting: 'Hello Brain' })).status).toBe(200);
  expect((await post(app, '/api/brain/code', { code: 'open sesame 42' })).status).toBe(200);
}

/** An authenticated brain session: ask it a question, get its reply. */
async function brainSession(app: TestApp): Promise<(message: string) => Promise<string>> {
  let cookie: string | undefined;
  const say = async (message: string) => {
    const res = await post(app, '/api/brain/handshake', { message }, cookie);
    expect(res.status).toBe(200);
    cookie = res.headers.getSetCookie()[0]?.split(';')[0] ?? cookie;
    return ((await res.json()) as BrainReply).reply;
  };
  await say('Hello Brain');
  expect(await say('open sesame 42')).toBe('Authentication successful. Session established.');
  return say;
}

describe('why is it red now', () => {
  it('names the bumped package and the changed file, and points at the file of the error', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const green = await buildOf(app, live, await project('2.0.0', GREEN_MAIN));
    expect(green.status, JSON.stringify(green.error)).toBe('succeeded');

    const red = await buildOf(app, live, await project('2.1.1', RED_MAIN));
    expect(red.status).toBe('failed');
    expect(red.diagnosis?.file).toBe('src/main.js');

    const res = await fetch(`${app.url}/api/builds/${red.id}/diff`);
    expect(res.status).toBe(200);
    const diff = BuildDiff.parse(await res.json());
    expect(diff.buildId).toBe(red.id);
    expect(diff.greenBuildId).toBe(green.id);

    // The bumped package, from → to, read from the two lockfiles.
    expect(diff.dependencies.lockfile).toEqual({ from: 'package-lock.json', to: 'package-lock.json' });
    expect(diff.dependencies.changed).toContainEqual({
      name: 'clsx',
      from: '2.0.0',
      to: '2.1.1',
      upgrade: true,
    });
    expect(diff.dependencies.added).toEqual([]);
    expect(diff.dependencies.removed).toEqual([]);

    // The changed files with a unified diff; the unchanged one is not listed; the lockfile has no diff.
    const paths = diff.files.changes.map((c) => c.path);
    expect(paths).toEqual(['src/main.js', 'package.json', 'package-lock.json']);
    expect(diff.files).toMatchObject({ modified: 3, added: 0, removed: 0, more: 0 });
    const main = diff.files.changes[0]!;
    expect(main.status).toBe('modified');
    expect(main.diff).toContain('--- a/src/main.js');
    expect(main.diff).toContain("+const title = clsx('title', { lit: true }");
    expect(diff.files.changes[1]!.diff).toContain('-    "clsx": "2.0.0"');
    expect(diff.files.changes[1]!.diff).toContain('+    "clsx": "2.1.1"');
    expect(diff.files.changes[2]).toMatchObject({ path: 'package-lock.json', noDiff: 'lockfile' });

    // What the failure points at: the file its error is in, first.
    expect(diff.pointsAt[0]).toMatchObject({ kind: 'file', name: 'src/main.js' });
    expect(diff.pointsAt[0]!.reason).toContain('src/main.js:4');
    expect(diff.pointsAt.some((p) => p.kind === 'dependency')).toBe(false);
    expect(diff.summary).toBe(`Points at: src/main.js — changed since ${green.id}, the last green build.`);
    expect(diff.failure).toMatchObject({ diagnosis: 'SYNTAX_ERROR', file: 'src/main.js', line: 4 });
    expect(diff.toolchain).toEqual([]);
    expect(diff.plan).toEqual([]);
    expect(diff.env).toEqual({ added: [], removed: [] });

    // The brain, the Forge assistant and the Forge chat answer from the same comparison, with the ids.
    const expected = [
      `Points at: src/main.js — changed since ${green.id}, the last green build.`,
      `Build ${red.id} (failed) compared with ${green.id}, the last green build of ${NAME}.`,
      'upgraded   clsx 2.0.0 → 2.1.1',
      'modified src/main.js',
    ];
    await setPhrases(app);
    const brain = await brainSession(app);
    for (const question of ['what changed since it last worked?', `why is it red now in ${NAME}`]) {
      const reply = await brain(question);
      for (const line of expected) expect(reply, question).toContain(line);
    }
    const assistant = await fetch(`${app.url}/api/forge/changes?project=${NAME}`);
    const { text } = (await assistant.json()) as { text: string };
    for (const line of expected) expect(text).toContain(line);
    const chat = await post(app, '/api/chat', { q: "What's different since the last green build?" });
    const { replies } = (await chat.json()) as { replies: Array<{ role: string; message: string }> };
    const answer = replies.find((r) => r.role === 'forge')!.message;
    for (const line of expected) expect(answer).toContain(line);

    // A green build is not compared.
    const notRed = await fetch(`${app.url}/api/builds/${green.id}/diff`);
    expect(notRed.status).toBe(409);
    expect(((await notRed.json()) as ErrorBody).code).toBe('NOT_A_FAILED_BUILD');
  }, 600_000);

  it('says plainly when the project was never green', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const files = {
      ...ZERO_DEP_BUILD,
      'package.json': JSON.stringify({
        name: 'never-green',
        private: true,
        scripts: { build: 'node build.js' },
      }),
      'build.js': "throw new Error('this project has never built')\n",
    };
    const { buildId } = (await (await upload(app, makeZip('never-green.zip', files))).json()) as UploadResult;
    const red = await live.finished(buildId!, 120_000);
    expect(red.status).toBe('failed');

    const res = await fetch(`${app.url}/api/builds/${red.id}/diff`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as ErrorBody;
    expect(body.code).toBe('NO_GREEN_BUILD');
    expect(body.error).toContain(`never-green has no successful build before ${red.id}`);

    const unknown = await fetch(`${app.url}/api/builds/b999-abcdef/diff`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as ErrorBody).code).toBe('BUILD_NOT_FOUND');
  }, 180_000);
});
