import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UploadResult } from '@forge/shared';
import { commonJsInEsm, missingEnvVariable, type BrokenProject } from '@forge/testing';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';

// Repair kinds of the broken-project catalogue that need no registry, built by a real daemon with
// the real Node: a CommonJS build script in an ESM package, and a variable the build reads.

afterEach(cleanup);

async function buildWith(app: TestApp, project: BrokenProject, autoRepair: boolean) {
  const live = await watch(app);
  const res = await fetch(`${app.url}/api/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ autoRepair }),
  });
  expect(res.status).toBe(200);
  const result = (await (
    await upload(app, makeZip(`${project.name}.zip`, project.files))
  ).json()) as UploadResult;
  return live.finished(result.buildId!, 120_000);
}

describe('a CommonJS script in a "type": "module" package', () => {
  it('is diagnosed at its line, and the rename to .cjs is proposed proven on a copy', async () => {
    const app = await startTestApp();
    const project = commonJsInEsm();
    const build = await buildWith(app, project, false);
    expect(build.status).toBe('failed');
    expect(build.diagnosis).toMatchObject({
      code: 'MODULE_FORMAT_MISMATCH',
      file: 'build.js',
      line: 1,
      subjects: ['build.js', 'package.json'],
      repair: 'USE_COMMONJS_EXTENSION',
    });
    expect(build.diagnosis!.summary).toContain('it uses require');
    expect(build.repairs).toEqual([
      expect.objectContaining({
        code: 'USE_COMMONJS_EXTENSION',
        status: 'proposed',
        verification: { status: 'passes', detail: 'verified: the build passes' },
      }),
    ]);
    expect([...build.repairs[0]!.files].sort()).toEqual(project.expected.repairedFiles);
    // The trial left the project as uploaded.
    const dir = path.join(app.home, 'projects', project.name);
    expect(fs.existsSync(path.join(dir, 'build.cjs'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe(project.files['package.json']);
  });

  it('with autoRepair on, is renamed (the script with it) and the build succeeds; undo puts build.js back', async () => {
    const app = await startTestApp();
    const project = commonJsInEsm('cjs-in-esm-auto');
    const build = await buildWith(app, project, true);
    expect(build.status).toBe('succeeded');
    expect(build.repairs).toEqual([
      expect.objectContaining({ code: 'USE_COMMONJS_EXTENSION', status: 'applied' }),
    ]);
    const dir = path.join(app.home, 'projects', project.name);
    expect(fs.readFileSync(path.join(dir, 'build.cjs'), 'utf8')).toBe(project.files['build.js']);
    expect(fs.existsSync(path.join(dir, 'build.js'))).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).scripts.build).toBe(
      'node build.cjs',
    );
    const undo = await fetch(`${app.url}/api/projects/${project.name}/repairs/undo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(undo.status).toBe(200);
    expect(fs.readFileSync(path.join(dir, 'build.js'), 'utf8')).toBe(project.files['build.js']);
    expect(fs.existsSync(path.join(dir, 'build.cjs'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe(project.files['package.json']);
  });
});

describe('a variable the build reads and .env.example declares', () => {
  it('is explained by name and the line that reads it; no repair, no value invented', async () => {
    const app = await startTestApp();
    const project = missingEnvVariable();
    const build = await buildWith(app, project, true);
    expect(build.status).toBe('failed');
    expect(build.diagnosis).toMatchObject(project.expected.diagnosis!);
    expect(build.diagnosis!.repair).toBeUndefined();
    expect(build.diagnosis!.suggestion).toContain('build.js:3 reads API_URL from the environment.');
    expect(build.diagnosis!.suggestion).toContain('.env.example documents it.');
    expect(build.diagnosis!.suggestion).toContain('{ "env": { "API_URL": "…" } }');
    expect(build.repairs).toEqual([]);
  });
});
