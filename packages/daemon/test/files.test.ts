import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Build, FileNode, FileStructureResponse, ServerMessage, UploadResult } from '@forge/shared';
import { STARTER_FILES, STARTER_OPEN_FILES } from '../src/features/files/starter-project.ts';
import { BUILD_EVENT_SLACK_MS, type AutoForgeNote } from '../src/features/auto-rebuild/auto-forge.ts';
import { cleanup, startTestApp, tempDir, type TestApp } from './helpers.ts';
import { makeZip, upload, watch, ZERO_DEP_BUILD } from './build-helpers.ts';

afterEach(cleanup);

const json = async <T>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T;

const call = (app: TestApp, method: string, route: string, body?: unknown) =>
  fetch(`${app.url}/api/files/${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const save = (app: TestApp, p: string, content: string, project?: string) =>
  call(app, 'POST', 'save', { path: p, content, ...(project ? { project } : {}) });
const content = (app: TestApp, p: string, project?: string) =>
  fetch(`${app.url}/api/files/content?path=${encodeURIComponent(p)}${project ? `&project=${project}` : ''}`);
const structure = (app: TestApp, project?: string) =>
  json<FileStructureResponse>(fetch(`${app.url}/api/files/structure${project ? `?project=${project}` : ''}`));

const find = (nodes: FileNode[], p: string): FileNode | undefined => {
  for (const n of nodes) {
    if (n.path === p) return n;
    const hit = n.children && find(n.children, p);
    if (hit) return hit;
  }
  return undefined;
};

/** Every file under `dir` with its bytes, links as "-> target": a before/after picture. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (abs: string, rel: string) => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      const full = path.join(abs, e.name);
      if (e.isSymbolicLink()) out[r] = `-> ${fs.readlinkSync(full)}`;
      else if (e.isDirectory()) {
        out[`${r}/`] = '';
        walk(full, r);
      } else out[r] = fs.readFileSync(full, 'base64');
    }
  };
  walk(dir, '');
  return out;
}

/** A fresh daemon on the starter project "Forge", plus a folder outside it that links point at. */
async function starterApp() {
  const app = await startTestApp({ starterProject: true });
  const root = path.join(app.home, 'projects', 'Forge');
  const outside = tempDir('forge-outside-');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'top secret');
  fs.symlinkSync(outside, path.join(root, 'escape'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'escape-file'));
  return { app, root, outside };
}

describe('file API: hostile paths', () => {
  const hostile: Array<[label: string, p: string, status: number, code: string]> = [
    ['..', '..', 403, 'PATH_OUTSIDE_PROJECT'],
    ['../../etc/passwd', '../../etc/passwd', 403, 'PATH_OUTSIDE_PROJECT'],
    ['a ".." in the middle', 'client/../../outside.txt', 403, 'PATH_OUTSIDE_PROJECT'],
    ['an absolute path', '/etc/passwd', 403, 'PATH_OUTSIDE_PROJECT'],
    ['a drive letter', 'C:\\x', 403, 'PATH_OUTSIDE_PROJECT'],
    ['a backslash', 'client\\..\\..\\x', 400, 'PATH_INVALID'],
    ['a NUL byte', 'client/App.tsx\0.png', 400, 'PATH_INVALID'],
    ['a "." segment', './package.json', 400, 'PATH_INVALID'],
    ['an empty segment', 'client//x', 400, 'PATH_INVALID'],
    ['a link to a folder outside', 'escape/secret.txt', 403, 'PATH_OUTSIDE_PROJECT'],
  ];

  it.each(hostile)(
    'refuses %s on every route and changes nothing outside',
    async (_label, p, status, code) => {
      const { app, outside } = await starterApp();
      // The whole home but the store (its own files may be checkpointed at any time).
      const home = () =>
        Object.fromEntries(Object.entries(snapshot(app.home)).filter(([k]) => !k.startsWith('forge.db')));
      const homeBefore = home();
      const outsideBefore = snapshot(outside);
      const attempts: Array<[string, Promise<Response>]> = [
        ['content', content(app, p)],
        ['save', save(app, p, 'pwned')],
        ['create {path}', call(app, 'POST', 'create', { path: p, content: 'pwned' })],
        ['create {name}', call(app, 'POST', 'create', { type: 'file', name: p, parentPath: '' })],
        ['create {parentPath}', call(app, 'POST', 'create', { type: 'folder', name: 'x', parentPath: p })],
        ['delete', call(app, 'DELETE', 'delete', { path: p })],
        ['rename to', call(app, 'POST', 'rename', { from: 'package.json', to: p })],
        ['rename from', call(app, 'POST', 'rename', { from: p, to: 'moved.txt' })],
      ];
      for (const [route, pending] of attempts) {
        const res = await pending;
        expect({ route, status: res.status }).toEqual({ route, status });
        expect(await res.json()).toMatchObject({ code, error: expect.any(String), hint: expect.any(String) });
      }
      expect(snapshot(outside)).toEqual(outsideBefore);
      expect(home()).toEqual(homeBefore);
    },
  );

  it('refuses to read or write through a link to a file outside, and deletes only the link itself', async () => {
    const { app, root, outside } = await starterApp();
    for (const res of [await content(app, 'escape-file'), await save(app, 'escape-file', 'pwned')]) {
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'PATH_OUTSIDE_PROJECT' });
    }
    const dangling = path.join(outside, 'not-yet.txt');
    fs.symlinkSync(dangling, path.join(root, 'dangling'));
    expect((await save(app, 'dangling', 'pwned')).status).toBe(403);
    expect(fs.existsSync(dangling)).toBe(false);

    fs.mkdirSync(path.join(root, 'vendor'));
    fs.symlinkSync(outside, path.join(root, 'vendor', 'inner-link'));
    for (const link of ['escape', 'escape-file', 'vendor']) {
      const res = await call(app, 'DELETE', 'delete', { path: link });
      expect(await res.json()).toEqual({ ok: true, path: link });
      expect(fs.existsSync(path.join(root, link))).toBe(false);
    }
    expect(snapshot(outside)).toEqual({ 'secret.txt': Buffer.from('top secret').toString('base64') });
  });

  it('treats "%2e%2e" as a plain name, never decoding it a second time', async () => {
    const { app, root } = await starterApp();
    const read = await fetch(
      `${app.url}/api/files/content?path=%252e%252e%252f%252e%252e%252fetc%252fpasswd`,
    );
    expect(read.status).toBe(404);
    expect(await read.json()).toMatchObject({
      code: 'FILE_NOT_FOUND',
      error: expect.stringContaining('%2e%2e%2f'),
    });
    const res = await call(app, 'POST', 'create', { path: '%2e%2e/x.txt', content: 'inside' });
    expect(await res.json()).toEqual({ ok: true, path: '%2e%2e/x.txt' });
    expect(fs.readFileSync(path.join(root, '%2e%2e', 'x.txt'), 'utf8')).toBe('inside');
  });

  it('refuses to delete the project folder itself', async () => {
    const { app, root } = await starterApp();
    for (const p of ['.', '/', './']) {
      const res = await call(app, 'DELETE', 'delete', { path: p });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'CANNOT_DELETE_ROOT' });
    }
    expect(fs.existsSync(path.join(root, 'package.json'))).toBe(true);
  });

  it('answers an unknown project with 404 and a malformed body with 400', async () => {
    const { app } = await starterApp();
    const res = await content(app, 'package.json', 'nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'PROJECT_NOT_FOUND' });
    const bad = await call(app, 'POST', 'save', { path: 'a.txt' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('file API: what a user does', () => {
  it('opens the starter project on a fresh home, with the four files the editor opens first', async () => {
    const app = await startTestApp({ starterProject: true });
    expect(
      (await json<Array<{ name: string }>>(fetch(`${app.url}/api/projects`))).map((p) => p.name),
    ).toEqual(['Forge']);
    const { projectName, tree } = await structure(app);
    expect(projectName).toBe('Forge');
    for (const rel of STARTER_OPEN_FILES) {
      expect(find(tree, rel)).toMatchObject({ type: 'file', size: Buffer.byteLength(STARTER_FILES[rel]!) });
      expect(await json(content(app, rel))).toEqual({ path: rel, content: STARTER_FILES[rel] });
    }
    expect(tree.map((n) => n.name).slice(0, 2)).toEqual(['client', 'server']); // folders first
  });

  it('shows node_modules and .git folded, and the tree of a named project', async () => {
    const { app, root } = await starterApp();
    fs.mkdirSync(path.join(root, 'node_modules/react'), { recursive: true });
    fs.writeFileSync(path.join(root, 'node_modules/react/index.js'), '');
    fs.mkdirSync(path.join(root, '.git'));
    const { tree, truncated } = await structure(app, 'Forge');
    expect(truncated).toBeUndefined();
    expect(find(tree, 'node_modules')).toEqual({
      name: 'node_modules',
      path: 'node_modules',
      type: 'folder',
      children: [],
      folded: 'ignored',
    });
    expect(find(tree, '.git')).toMatchObject({ folded: 'ignored' });
    expect(find(tree, 'node_modules/react')).toBeUndefined();
  });

  it('saves atomically: the file is replaced whole, keeps its mode, and leaves no temp file', async () => {
    const { app, root } = await starterApp();
    const file = path.join(root, 'server/routes.ts');
    fs.chmodSync(file, 0o750);
    const inodeBefore = fs.statSync(file).ino;
    const res = await save(app, 'server/routes.ts', 'export const edited = true;\n');
    expect(await res.json()).toEqual({ ok: true, path: 'server/routes.ts' });
    expect(fs.readFileSync(file, 'utf8')).toBe('export const edited = true;\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o750);
    // A new inode: the content was written to a temp file and renamed over, never truncated in place.
    expect(fs.statSync(file).ino).not.toBe(inodeBefore);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['routes.ts']);
    // Saving a path that does not exist yet creates it (and its folders).
    expect((await save(app, 'notes/today.md', '# hi')).status).toBe(200);
    expect(fs.readFileSync(path.join(root, 'notes/today.md'), 'utf8')).toBe('# hi');
    const folder = await save(app, 'client', 'x');
    expect(folder.status).toBe(400);
    expect(await folder.json()).toMatchObject({ code: 'NOT_A_FILE' });
  });

  it('creates files and folders with both body forms, never overwriting', async () => {
    const { app, root } = await starterApp();
    const reading1 = await call(app, 'POST', 'create', {
      type: 'file',
      name: 'Button.tsx',
      parentPath: 'client/src',
    });
    expect(await reading1.json()).toEqual({ ok: true, path: 'client/src/Button.tsx' });
    expect(fs.readFileSync(path.join(root, 'client/src/Button.tsx'), 'utf8')).toBe('');
    const folder = await call(app, 'POST', 'create', {
      type: 'folder',
      name: 'components',
      parentPath: 'client/src/',
    });
    expect(await folder.json()).toEqual({ ok: true, path: 'client/src/components' });
    expect(fs.statSync(path.join(root, 'client/src/components')).isDirectory()).toBe(true);
    const atRoot = await call(app, 'POST', 'create', { type: 'file', name: 'README.md', parentPath: '' });
    expect(await atRoot.json()).toEqual({ ok: true, path: 'README.md' });

    const reading2 = await call(app, 'POST', 'create', {
      path: 'server/db/schema.sql',
      content: 'create table t();',
    });
    expect(await reading2.json()).toEqual({ ok: true, path: 'server/db/schema.sql' });
    expect(fs.readFileSync(path.join(root, 'server/db/schema.sql'), 'utf8')).toBe('create table t();');

    for (const body of [
      { path: 'package.json', content: 'clobbered' },
      { type: 'file', name: 'App.tsx', parentPath: 'client/src' },
      { type: 'folder', name: 'client', parentPath: '' },
    ]) {
      const res = await call(app, 'POST', 'create', body);
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'FILE_EXISTS' });
    }
    expect(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).toBe(STARTER_FILES['package.json']);
    const underFile = await call(app, 'POST', 'create', { path: 'package.json/x', content: '' });
    expect(underFile.status).toBe(400);
  });

  it('deletes a file, and a folder with everything in it', async () => {
    const { app, root } = await starterApp();
    expect(await json(call(app, 'DELETE', 'delete', { path: 'client/src/index.css' }))).toEqual({
      ok: true,
      path: 'client/src/index.css',
    });
    expect(fs.existsSync(path.join(root, 'client/src/index.css'))).toBe(false);
    expect((await call(app, 'DELETE', 'delete', { path: 'client' })).status).toBe(200);
    expect(fs.existsSync(path.join(root, 'client'))).toBe(false);
    const again = await call(app, 'DELETE', 'delete', { path: 'client' });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ code: 'FILE_NOT_FOUND' });
  });

  it('renames and moves files and folders inside the project, never over an existing one', async () => {
    const { app, root } = await starterApp();
    expect(
      await json(call(app, 'POST', 'rename', { from: 'server/routes.ts', to: 'server/api.ts' })),
    ).toEqual({
      ok: true,
      path: 'server/api.ts',
    });
    expect(fs.readFileSync(path.join(root, 'server/api.ts'), 'utf8')).toBe(STARTER_FILES['server/routes.ts']);
    expect(await json(call(app, 'POST', 'rename', { from: 'server', to: 'backend/server' }))).toEqual({
      ok: true,
      path: 'backend/server',
    });
    expect(fs.existsSync(path.join(root, 'backend/server/api.ts'))).toBe(true);

    const taken = await call(app, 'POST', 'rename', { from: 'backend/server/api.ts', to: 'package.json' });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({ code: 'FILE_EXISTS' });
    const intoItself = await call(app, 'POST', 'rename', { from: 'backend', to: 'backend/inner' });
    expect(intoItself.status).toBe(400);
    expect(fs.existsSync(path.join(root, 'backend/server/api.ts'))).toBe(true);
    const missing = await call(app, 'POST', 'rename', { from: 'nope.ts', to: 'yes.ts' });
    expect(missing.status).toBe(404);
  });

  it('answers clear errors for binary and huge files instead of their bytes', async () => {
    const { app, root } = await starterApp();
    fs.writeFileSync(
      path.join(root, 'logo.png'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]),
    );
    const binary = await content(app, 'logo.png');
    expect(binary.status).toBe(415);
    expect(await binary.json()).toMatchObject({
      code: 'FILE_BINARY',
      error: 'This file is binary (or not UTF-8 text) and cannot be opened in the editor.',
    });
    fs.writeFileSync(path.join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect((await content(app, 'latin1.txt')).status).toBe(415);

    fs.writeFileSync(path.join(root, 'huge.log'), Buffer.alloc(2 * 1024 * 1024 + 1, 'a'));
    const huge = await content(app, 'huge.log');
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({
      code: 'FILE_TOO_LARGE_TO_OPEN',
      error: 'This file is too large to open in the editor (over 2 MB).',
    });
    const folder = await content(app, 'client');
    expect(folder.status).toBe(400);
    expect(await folder.json()).toMatchObject({ code: 'NOT_A_FILE' });
  });
});

describe('WatchBot', () => {
  it('pushes the new tree and the new content when someone else changes a file on disk', async () => {
    const { app, root } = await starterApp();
    const live = await watch(app);
    await structure(app); // a client looks at the project: WatchBot watches it
    await app.forge.services.files.watchBot.ready('Forge');

    fs.writeFileSync(path.join(root, 'client/src/App.tsx'), 'export const App = () => null;\n');
    fs.writeFileSync(path.join(root, 'client/src/extra.ts'), 'export {};\n');
    const updated = await live.until(
      (m) => m.type === 'project-files-updated' && find(m.fileStructure, 'client/src/extra.ts') !== undefined,
      10_000,
    );
    expect(updated).toMatchObject({ projectName: 'Forge' });
    const pushed = await live.until(
      (m) => m.type === 'file-content-updated' && m.filePath === 'client/src/App.tsx',
      10_000,
    );
    expect(pushed).toMatchObject({ content: 'export const App = () => null;\n', projectName: 'Forge' });

    // Installs are not watched: a burst there pushes nothing.
    const before = live.messages.length;
    fs.mkdirSync(path.join(root, 'node_modules/pkg'), { recursive: true });
    fs.writeFileSync(path.join(root, 'node_modules/pkg/index.js'), '');
    fs.writeFileSync(path.join(root, 'marker.txt'), 'after');
    await live.until((m) => m.type === 'file-content-updated' && m.filePath === 'marker.txt', 10_000);
    const since = live.messages.slice(before);
    expect(
      since.some((m) => m.type === 'file-content-updated' && m.filePath.startsWith('node_modules')),
    ).toBe(false);
  });

  it('pushes changes inside a folder whose name begins with two dots ("..cache" is inside)', async () => {
    const { app, root } = await starterApp();
    fs.mkdirSync(path.join(root, '..cache'));
    const live = await watch(app);
    await structure(app);
    await app.forge.services.files.watchBot.ready('Forge');
    fs.writeFileSync(path.join(root, '..cache/notes.txt'), 'kept');
    const pushed = await live.until(
      (m) => m.type === 'file-content-updated' && m.filePath === '..cache/notes.txt',
      10_000,
    );
    expect(pushed).toMatchObject({ content: 'kept', projectName: 'Forge' });
  });

  it('keeps watching a project after an upload replaces its folder, twice', async () => {
    const app = await startTestApp();
    await fetch(`${app.url}/api/forge/toggle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ active: false }),
    });
    const live = await watch(app);
    const zip = makeZip('zero.zip', ZERO_DEP_BUILD);
    const first = await json<UploadResult>(upload(app, zip));
    await live.finished(first.buildId!);
    await structure(app, 'zero');
    const root = path.join(app.home, 'projects', 'zero');
    for (let round = 1; round <= 2; round++) {
      const again = await json<UploadResult>(upload(app, zip));
      await live.finished(again.buildId!);
      await app.forge.services.files.watchBot.ready('zero');
      fs.writeFileSync(path.join(root, `round-${round}.txt`), `round ${round}`);
      const pushed = await live.until(
        (m) => m.type === 'file-content-updated' && m.filePath === `round-${round}.txt`,
        10_000,
      );
      expect(pushed).toMatchObject({ projectName: 'zero', content: `round ${round}` });
    }
  });

  it('stops every watcher when the app closes', async () => {
    const { app } = await starterApp();
    await structure(app);
    expect(app.forge.services.files.watchBot.watching()).toEqual(['Forge']);
    await app.stop();
    expect(app.forge.services.files.watchBot.watching()).toEqual([]);
  });
});

describe('auto-forge', () => {
  const toggle = (app: TestApp, active: boolean) =>
    json<{ active: boolean }>(
      fetch(`${app.url}/api/forge/toggle`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ active }),
      }),
    );
  const toggleState = (app: TestApp) => json<{ active: boolean }>(fetch(`${app.url}/api/forge/toggle`));
  const builds = (app: TestApp) => json<Build[]>(fetch(`${app.url}/api/builds?project=zero`));
  /**
   * Resolves once auto-forge has decided about a change of each of `paths` of `project` with
   * `outcome`: "no rebuild" is awaited as an event, never by waiting out the settle time.
   */
  const decided = (app: TestApp, project: string, outcome: AutoForgeNote['outcome'], paths: string[]) => {
    const left = new Set(paths);
    return new Promise<void>((resolve) => {
      const stop = app.forge.services.autoForge.onNote((note) => {
        if (note.project !== project || note.outcome !== outcome) return;
        for (const p of note.paths) left.delete(p);
        if (left.size === 0) {
          stop();
          resolve();
        }
      });
    });
  };

  it('starts on, and the toggle survives a restart', async () => {
    const home = tempDir('forge-home-');
    const first = await startTestApp({ home });
    expect(await toggleState(first)).toEqual({ active: true });
    expect(await toggle(first, false)).toEqual({ active: false });
    await first.stop();
    const second = await startTestApp({ home });
    expect(await toggleState(second)).toEqual({ active: false });
    expect(await toggle(second, true)).toEqual({ active: true });
  });

  it('rebuilds a built project after a save, says why, and not when it is off', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const first = await json<UploadResult>(upload(app, makeZip('zero.zip', ZERO_DEP_BUILD)));
    await live.finished(first.buildId!);
    await structure(app, 'zero');
    await app.forge.services.files.watchBot.ready('zero');

    const edited = ZERO_DEP_BUILD['build.js'].replace('Built by Forge', 'Rebuilt by auto-forge');
    expect((await save(app, 'build.js', edited, 'zero')).status).toBe(200);
    const started = (await live.until(
      (m) => m.type === 'build-stage' && m.projectName === 'zero' && m.buildId !== first.buildId,
      15_000,
    )) as Extract<ServerMessage, { type: 'build-stage' }>;
    const why = await live.until((m) => m.type === 'log' && m.botName === 'WatchBot', 15_000);
    expect(why).toMatchObject({
      message: 'Auto-Forge: rebuilding zero because build.js was saved in Forge.',
      buildId: started.buildId,
    });
    const rebuilt = await live.finished(started.buildId!);
    expect(rebuilt.status).toBe('succeeded');
    expect(await (await fetch(rebuilt.previewUrl!)).text()).toContain('Rebuilt by auto-forge');

    // The build's own writes (its dist/ output) start no build and are not among the reasons of the
    // next one: a save right after the build is rebuilt for itself alone.
    expect((await save(app, 'build.js', edited.replace('Rebuilt', 'Rebuilt again'), 'zero')).status).toBe(
      200,
    );
    const next = await live.until(
      (m) => m.type === 'log' && m.botName === 'WatchBot' && m.buildId !== started.buildId,
      15_000,
    );
    expect(next).toMatchObject({
      message: 'Auto-Forge: rebuilding zero because build.js was saved in Forge.',
    });
    await live.finished((next as { buildId: string }).buildId);
    expect(await builds(app)).toHaveLength(3);

    await toggle(app, false);
    const ignored = decided(app, 'zero', 'off', ['build.js', 'other.txt']);
    await save(app, 'build.js', ZERO_DEP_BUILD['build.js'], 'zero');
    fs.writeFileSync(path.join(app.home, 'projects/zero/other.txt'), 'changed on disk');
    await ignored;
    expect(await builds(app)).toHaveLength(3);
  });

  it('rebuilds after a change on disk by another tool, but never a project that was never built', async () => {
    const app = await startTestApp({ starterProject: true });
    const live = await watch(app);
    await structure(app);
    await app.forge.services.files.watchBot.ready('Forge');
    const ignored = decided(app, 'Forge', 'never-built', ['client/src/App.tsx', 'package.json']);
    await save(app, 'client/src/App.tsx', 'export const App = () => null;\n');
    fs.writeFileSync(path.join(app.home, 'projects/Forge/package.json'), '{}');
    await live.until((m) => m.type === 'file-content-updated' && m.filePath === 'package.json', 10_000);
    await ignored;
    expect(await json<Build[]>(fetch(`${app.url}/api/builds?project=Forge`))).toEqual([]);

    const first = await json<UploadResult>(upload(app, makeZip('zero.zip', ZERO_DEP_BUILD)));
    const built = await live.finished(first.buildId!);
    await structure(app, 'zero');
    await app.forge.services.files.watchBot.ready('zero');
    // Disk changes seen as a build ends are taken as the build's own: edit a moment later.
    const slack = Date.parse(built.endedAt!) + BUILD_EVENT_SLACK_MS + 50 - Date.now();
    if (slack > 0) await new Promise((resolve) => setTimeout(resolve, slack));
    fs.writeFileSync(path.join(app.home, 'projects/zero/notes.txt'), 'edited elsewhere');
    const why = await live.until((m) => m.type === 'log' && m.botName === 'WatchBot', 15_000);
    expect(why).toMatchObject({
      message: 'Auto-Forge: rebuilding zero because notes.txt was changed on disk.',
    });
    await live.finished((why as { buildId: string }).buildId);
  });
});
