import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildLogsResponse, Repair, UploadResult } from '@forge/shared';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';

// A proposed repair (autoRepair off) is tried on a scratch copy of the project before it is shown:
// the failed step runs again there, in the same sandbox, and the proposal carries what happened.
// Projects that need no registry: a build script (node build.mjs) whose imports differ from their
// files by case.

afterEach(cleanup);

const page = "export const page = () => '<!doctype html><title>ok</title><h1>repaired</h1>';\n";

const BUILD_MJS = [
  "import { page } from './Page.mjs';",
  "import fs from 'node:fs';",
  "fs.mkdirSync('dist', { recursive: true });",
  "fs.writeFileSync('dist/index.html', page());",
  '',
].join('\n');

const pkg = (name: string) =>
  JSON.stringify({ name, version: '1.0.0', scripts: { build: 'node build.mjs' } });

/** One import in the wrong case: the repair makes the build pass. */
const oneMismatch = { 'package.json': pkg('proven-one'), 'build.mjs': BUILD_MJS, 'page.mjs': page };

/** The repaired import leads to a second failure the repair cannot fix: a syntax error in page.mjs. */
const thenSyntax = {
  'package.json': pkg('proven-partial'),
  'build.mjs': BUILD_MJS,
  'page.mjs': "export const page = () => {\n  return 'x',,\n};\n",
};

const post = (app: TestApp, route: string, body: unknown = {}) =>
  fetch(`${app.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function logLines(app: TestApp, buildId: string): Promise<string[]> {
  const res = await fetch(`${app.url}/api/builds/${buildId}/logs?limit=10000`);
  return ((await res.json()) as BuildLogsResponse).entries.map((e) => `${e.botName}: ${e.message}`);
}

async function failWithProposal(app: TestApp, name: string, files: Record<string, string>) {
  const live = await watch(app);
  expect((await post(app, '/api/settings', { autoRepair: false })).status).toBe(200);
  const res = (await (await upload(app, makeZip(`${name}.zip`, files))).json()) as UploadResult;
  const build = await live.finished(res.buildId!, 120_000);
  expect(build.status).toBe('failed');
  return build;
}

/** Every file of a folder with its bytes, node_modules and .git left out. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const abs = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, abs);
    if (rel.startsWith('.git') || rel.startsWith('node_modules') || !entry.isFile()) continue;
    out[rel] = fs.readFileSync(abs, 'utf8');
  }
  return out;
}

describe('a proposed repair is proven on a scratch copy before it is shown', () => {
  it('labels a repair that makes the build pass, and leaves the project exactly as uploaded', async () => {
    const app = await startTestApp();
    const build = await failWithProposal(app, 'proven-one', oneMismatch);
    expect(build.repairs).toEqual([
      expect.objectContaining({
        code: 'FIX_IMPORT_CASE',
        status: 'proposed',
        verification: { status: 'passes', detail: 'verified: the build passes' },
      }),
    ]);
    // The trial wrote nothing into the project: no repaired import, no dist.
    const projectDir = path.join(app.home, 'projects', 'proven-one');
    expect(snapshot(projectDir)).toEqual(oneMismatch);
    const lines = await logLines(app, build.id);
    expect(lines).toContain('RepairBot: FIX_IMPORT_CASE verified: the build passes');
    // The trial's own build ran (its command is in the log, as RepairBot's).
    expect(lines).toContain('RepairBot: $ npm run build');
    // The scratch copy goes away.
    const tmp = path.join(app.home, 'tmp');
    await expect
      .poll(() => (fs.existsSync(tmp) ? fs.readdirSync(tmp).filter((f) => f.includes('repair-trial')) : []), {
        timeout: 30_000,
      })
      .toEqual([]);
  });

  it('labels a repair that fixes some of the errors with how many, and what the build then fails on', async () => {
    const app = await startTestApp();
    const build = await failWithProposal(app, 'proven-partial', thenSyntax);
    expect(build.diagnosis).toMatchObject({ code: 'IMPORT_CASE_MISMATCH', repair: 'FIX_IMPORT_CASE' });
    const [repair] = build.repairs;
    expect(repair).toMatchObject({ code: 'FIX_IMPORT_CASE', status: 'proposed' });
    expect(repair!.verification).toMatchObject({ status: 'partial' });
    expect(repair!.verification!.detail).toMatch(
      /^verified: fixes 1 of 1 error; the build then fails: .*\(page\.mjs:2/,
    );
    expect(snapshot(path.join(app.home, 'projects', 'proven-partial'))).toEqual(thenSyntax);
  });
});

/** The static import is repairable, but the script then loads the same wrong path at run time. */
const sameAgain = {
  'package.json': pkg('proven-dropped'),
  'build.mjs': BUILD_MJS.replace(
    "import fs from 'node:fs';",
    "import fs from 'node:fs';\nawait import(['.', 'Page.mjs'].join('/'));",
  ),
  'page.mjs': page,
};

describe('a repair that does not move the build forward', () => {
  it('made in place (autoRepair on), is undone: the file restored, the journal and the record say so', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const res = (await (await upload(app, makeZip('proven-dropped.zip', sameAgain))).json()) as UploadResult;
    const build = await live.finished(res.buildId!, 120_000);
    expect(build.status).toBe('failed');
    expect(build.repairs).toEqual([
      expect.objectContaining({
        code: 'FIX_IMPORT_CASE',
        status: 'undone',
        summary: expect.stringContaining('undone: it did not move the build forward'),
      }),
    ]);
    expect(build.diagnosis).toMatchObject({ code: 'IMPORT_CASE_MISMATCH' });
    expect(build.diagnosis!.repair).toBeUndefined();
    expect(build.diagnosis!.suggestion).toContain('FIX_IMPORT_CASE was made and undone');
    expect(snapshot(path.join(app.home, 'projects', 'proven-dropped'))).toEqual(sameAgain);
    const journal = (await (
      await fetch(`${app.url}/api/projects/proven-dropped/repairs`)
    ).json()) as Repair[];
    expect(journal.map((r) => [r.code, r.status])).toEqual([['FIX_IMPORT_CASE', 'undone']]);
    const lines = await logLines(app, build.id);
    expect(lines).toContainEqual(
      expect.stringMatching(/^RepairBot: Undid r_\d+: FIX_IMPORT_CASE was made and undone/),
    );
  });

  it('made in place, is kept when the build gets further (then fails on what it cannot repair)', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const res = (await (await upload(app, makeZip('proven-partial.zip', thenSyntax))).json()) as UploadResult;
    const build = await live.finished(res.buildId!, 120_000);
    expect(build.status).toBe('failed');
    expect(build.diagnosis).toMatchObject({ code: 'SYNTAX_ERROR', file: 'page.mjs' });
    expect(build.repairs).toEqual([expect.objectContaining({ code: 'FIX_IMPORT_CASE', status: 'applied' })]);
  });

  it('proposed, is dropped, with why in the build log, and the diagnosis no longer offers it', async () => {
    const app = await startTestApp();
    const build = await failWithProposal(app, 'proven-dropped', sameAgain);
    expect(build.repairs).toEqual([]);
    expect(build.diagnosis).toMatchObject({ code: 'IMPORT_CASE_MISMATCH' });
    expect(build.diagnosis!.repair).toBeUndefined();
    expect(build.diagnosis!.suggestion).toContain('FIX_IMPORT_CASE was not proposed');
    const lines = await logLines(app, build.id);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^RepairBot: Dropped the repair "RepairBot would change the import .*the build still fails the same way/,
      ),
    );
  });
});
