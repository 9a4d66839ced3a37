import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildLogsResponse, FixResult, Repair, UndoRepairResult, UploadResult } from '@forge/shared';
import AdmZip from 'adm-zip';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';

// ScanBot and RepairBot inside the build pipeline, through a real daemon, with projects that need
// no registry: a build script whose import differs from its file only by case (repairable), and
// one with a syntax error (diagnosed, not repairable). The registry-backed repairs (packages,
// lockfiles, peers) are proven in assistants-real-world.test.ts.

afterEach(cleanup);

const BUILD_MJS = [
  "import { page } from './Page.mjs';",
  "import fs from 'node:fs';",
  "fs.mkdirSync('dist', { recursive: true });",
  "fs.writeFileSync('dist/index.html', page());",
  '',
].join('\n');

/** `npm run build` imports ./Page.mjs; the file is page.mjs (works on macOS, fails on Linux). */
const caseMismatch = {
  'package.json': JSON.stringify({
    name: 'case-app',
    version: '1.0.0',
    scripts: { build: 'node build.mjs' },
  }),
  'build.mjs': BUILD_MJS,
  'page.mjs': "export const page = () => '<!doctype html><title>ok</title><h1>repaired</h1>';\n",
};

const syntaxError = {
  'package.json': JSON.stringify({
    name: 'syntax-app',
    version: '1.0.0',
    scripts: { build: 'node build.mjs' },
  }),
  'build.mjs': "import fs from 'node:fs';\nconst x = {\n  a: 1,,\n};\nfs.writeFileSync('x', String(x));\n",
};

const json = async <T>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T;
const post = (app: TestApp, route: string, body: unknown = {}) =>
  fetch(`${app.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function uploadAndFinish(
  app: TestApp,
  live: Awaited<ReturnType<typeof watch>>,
  name: string,
  files: object,
) {
  const result = await json<UploadResult>(
    upload(app, makeZip(`${name}.zip`, files as Record<string, string>)),
  );
  expect(result.buildId).toBeTruthy();
  return live.finished(result.buildId!, 60_000);
}

async function logLines(app: TestApp, buildId: string): Promise<string[]> {
  const page = await json<BuildLogsResponse>(fetch(`${app.url}/api/builds/${buildId}/logs?limit=10000`));
  return page.entries.map((e) => `${e.botName}: ${e.message}`);
}

describe('RepairBot in the pipeline', () => {
  it('with autoRepair on, repairs an import case mismatch in the same build, records it, and undo restores the file', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const build = await uploadAndFinish(app, live, 'case-app', caseMismatch);
    expect(build.status).toBe('succeeded');
    expect(build.diagnosis).toBeNull();
    expect(build.repairs).toEqual([
      expect.objectContaining({ code: 'FIX_IMPORT_CASE', status: 'applied', files: ['build.mjs'] }),
    ]);
    const repair = build.repairs[0]!;
    expect(repair.id).toMatch(/^r_\d+$/);
    expect(repair.diff).toContain("-import { page } from './Page.mjs';");
    expect(repair.diff).toContain("+import { page } from './page.mjs';");
    // The failed build step, ScanBot, RepairBot, then the build again.
    const steps = build.steps.map((s) => `${s.name}#${s.attempt}:${s.status}`);
    expect(steps).toEqual(
      expect.arrayContaining([
        'build#1:failed',
        'diagnose#1:succeeded',
        'repair#1:succeeded',
        'build#2:succeeded',
      ]),
    );
    const lines = await logLines(app, build.id);
    expect(lines).toContainEqual(expect.stringMatching(/^ScanBot: Diagnosis: .*Page\.mjs/));
    expect(lines).toContainEqual(`RepairBot: ${repair.summary}`);
    // Every client heard it live, in build-finished too.
    const finished = live.messages.find((m) => m.type === 'build-finished' && m.buildId === build.id);
    expect(finished).toMatchObject({ repairs: [expect.objectContaining({ id: repair.id })] });

    const projectDir = path.join(app.home, 'projects', 'case-app');
    expect(fs.readFileSync(path.join(projectDir, 'build.mjs'), 'utf8')).toContain("from './page.mjs'");
    // Download gives the repaired source.
    const zip = Buffer.from(await (await fetch(`${app.url}/api/projects/case-app/download`)).arrayBuffer());
    const entry = new AdmZip(zip).getEntries().find((e) => e.entryName.endsWith('build.mjs'));
    expect(entry?.getData().toString('utf8')).toContain("from './page.mjs'");

    const journal = await json<Repair[]>(fetch(`${app.url}/api/projects/case-app/repairs`));
    expect(journal.map((r) => [r.id, r.status])).toEqual([[repair.id, 'applied']]);

    const undone = await json<UndoRepairResult>(post(app, '/api/projects/case-app/repairs/undo'));
    expect(undone.files).toEqual(['build.mjs']);
    expect(undone.restored.map((r) => [r.id, r.status])).toEqual([[repair.id, 'undone']]);
    expect(fs.readFileSync(path.join(projectDir, 'build.mjs'), 'utf8')).toBe(BUILD_MJS);
    // Nothing left to undo.
    const again = await post(app, '/api/projects/case-app/repairs/undo');
    expect(again.status).toBe(409);
    expect((await json<{ code: string }>(again)).code).toBe('NOTHING_TO_FIX');
  });

  it('with autoRepair off, the failed build carries the diagnosis and a proposed repair; fix applies it and builds green', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    expect((await post(app, '/api/settings', { autoRepair: false })).status).toBe(200);
    const failed = await uploadAndFinish(app, live, 'case-app', caseMismatch);

    expect(failed.status).toBe('failed');
    expect(failed.diagnosis).toMatchObject({
      code: 'IMPORT_CASE_MISMATCH',
      file: 'build.mjs',
      repair: 'FIX_IMPORT_CASE',
    });
    expect(failed.diagnosis!.summary).toContain('Page.mjs');
    expect(failed.diagnosis!.suggestion).toBeTruthy();
    expect(failed.repairs).toEqual([
      expect.objectContaining({ code: 'FIX_IMPORT_CASE', status: 'proposed', files: ['build.mjs'] }),
    ]);
    expect(failed.repairs[0]!.diff).toContain("+import { page } from './page.mjs';");
    // Proposed, not made: the file is untouched and the journal is empty.
    const projectDir = path.join(app.home, 'projects', 'case-app');
    expect(fs.readFileSync(path.join(projectDir, 'build.mjs'), 'utf8')).toBe(BUILD_MJS);
    expect(await json<Repair[]>(fetch(`${app.url}/api/projects/case-app/repairs`))).toEqual([]);
    const finished = live.messages.find((m) => m.type === 'build-finished' && m.buildId === failed.id);
    expect(finished).toMatchObject({ diagnosis: { code: 'IMPORT_CASE_MISMATCH' } });

    const fix = await post(app, `/api/builds/${failed.id}/fix`);
    expect(fix.status).toBe(200);
    const result = (await fix.json()) as FixResult;
    expect(result.buildId).not.toBe(failed.id);
    expect(result.repairs).toEqual([expect.objectContaining({ code: 'FIX_IMPORT_CASE', status: 'applied' })]);
    expect(result.message).toContain(result.buildId);
    const rebuilt = await live.finished(result.buildId, 60_000);
    expect(rebuilt.status).toBe('succeeded');
    expect(rebuilt.repairs.map((r) => [r.id, r.status])).toEqual([[result.repairs[0]!.id, 'applied']]);

    // A build that succeeded has nothing to fix.
    const nothing = await post(app, `/api/builds/${rebuilt.id}/fix`);
    expect(nothing.status).toBe(409);
    expect((await json<{ code: string }>(nothing)).code).toBe('NOTHING_TO_FIX');
  });

  it('diagnoses what it cannot repair: a syntax error, with file and line', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const build = await uploadAndFinish(app, live, 'syntax-app', syntaxError);
    expect(build.status).toBe('failed');
    expect(build.diagnosis).toMatchObject({ code: 'SYNTAX_ERROR', file: 'build.mjs', line: 3 });
    expect(build.diagnosis!.repair).toBeUndefined();
    expect(build.repairs).toEqual([]);
    const fix = await post(app, `/api/builds/${build.id}/fix`);
    expect(fix.status).toBe(409);
    expect((await json<{ error: string }>(fix)).error).toContain('no safe repair');
  });

  it('answers the assistant’s fix-modules and integrate commands with clear texts', async () => {
    const app = await startTestApp({ starterProject: false });
    const none = await post(app, '/api/forge/fix-modules');
    expect(none.status).toBe(404);
    expect((await json<{ code: string }>(none)).code).toBe('PROJECT_NOT_FOUND');
    const integrate = await post(app, '/api/forge/integrate-last');
    expect(integrate.status).toBe(404);
    expect((await json<{ code: string }>(integrate)).code).toBe('NO_ARTIFACT');

    const live = await watch(app);
    const ok = await uploadAndFinish(app, live, 'case-app', caseMismatch);
    expect(ok.status).toBe('succeeded');
    const modules = await json<{ text: string }>(post(app, '/api/forge/fix-modules'));
    expect(modules.text).toBe(
      `No missing modules to repair in case-app: its last build (${ok.id}) succeeded.`,
    );
    // IntegrationBot publishes the successful build (features/integration; integration.test.ts).
    const later = await post(app, '/api/forge/integrate-last');
    expect(later.status).toBe(200);
    expect((await json<{ text: string }>(later)).text).toMatch(
      new RegExp(
        `^Integrated case-app at /apps/case-app: build ${ok.id}, 1 file, served at http://127\\.0\\.0\\.1:\\d+$`,
      ),
    );
  });
});
