import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Build, BuildLogsResponse, UploadResult } from '@forge/shared';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';

/**
 * A repair that would change nothing never builds again: `forge fix` answers NOTHING_TO_FIX with why,
 * starting no build, and a build whose diagnosis names a repair RepairBot cannot make ends without
 * running its steps again and without offering `forge fix`. Projects that need no registry.
 */
afterEach(cleanup);

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

const BUILD_MJS =
  "import { page } from './Page.mjs';\nimport fs from 'node:fs';\nfs.mkdirSync('dist', { recursive: true });\nfs.writeFileSync('dist/index.html', page());\n";

describe('a repair that changes nothing', () => {
  it('forge fix after the import was corrected by hand: 409 NOTHING_TO_FIX with why, and no new build', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    expect((await post(app, '/api/settings', { autoRepair: false })).status).toBe(200);
    const failed = await uploadAndFinish(app, live, 'case-app', {
      'package.json': JSON.stringify({
        name: 'case-app',
        version: '1.0.0',
        scripts: { build: 'node build.mjs' },
      }),
      'build.mjs': BUILD_MJS,
      'page.mjs': "export const page = () => '<h1>ok</h1>';\n",
    });
    expect(failed.status).toBe('failed');
    expect(failed.diagnosis).toMatchObject({ code: 'IMPORT_CASE_MISMATCH', repair: 'FIX_IMPORT_CASE' });

    // The developer corrects the import in the editor before running forge fix.
    const file = path.join(app.home, 'projects', 'case-app', 'build.mjs');
    fs.writeFileSync(file, BUILD_MJS.replace('./Page.mjs', './page.mjs'));

    const fix = await post(app, `/api/builds/${failed.id}/fix`);
    expect(fix.status).toBe(409);
    const body = await json<{ code: string; error: string }>(fix);
    expect(body.code).toBe('NOTHING_TO_FIX');
    expect(body.error).toBe(
      `RepairBot has nothing to change for build ${failed.id} (FIX_IMPORT_CASE): build.mjs has no import of "./Page.mjs". No build was started: it would fail the same way.`,
    );
    const builds = await json<Build[]>(fetch(`${app.url}/api/builds?project=case-app`));
    expect(builds.map((b) => b.id)).toEqual([failed.id]);
    expect(fs.readFileSync(file, 'utf8')).toContain("'./page.mjs'");
  });

  it('a diagnosis whose repair RepairBot cannot make: the build stops once, says why, and offers no forge fix', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    // The project's own install command (a wrapper around npm) fails on a peer conflict: RepairBot
    // does not rewrite a command of the project's own.
    const build = await uploadAndFinish(app, live, 'peer-app', {
      'package.json': JSON.stringify({
        name: 'peer-app',
        version: '1.0.0',
        scripts: { build: 'node build.mjs' },
      }),
      '.forgerc.json': JSON.stringify({ install: 'node install.mjs' }),
      'install.mjs': [
        "console.error('npm error code ERESOLVE');",
        "console.error('npm error ERESOLVE unable to resolve dependency tree');",
        "console.error('npm error Found: react@18.3.1');",
        'process.exit(1);',
        '',
      ].join('\n'),
      'build.mjs': "console.log('never run');\n",
    });
    expect(build.status).toBe('failed');
    expect(build.error?.code).toBe('INSTALL_FAILED');
    expect(build.diagnosis?.code).toBe('PEER_DEPENDENCY_CONFLICT');
    expect(build.diagnosis?.repair).toBeUndefined();
    expect(build.diagnosis?.suggestion).not.toMatch(/forge fix|autoRepair/);
    expect(build.diagnosis?.suggestion).toContain(
      "RepairBot has nothing to change: the install is the project's own command (node install.mjs): RepairBot does not change it.",
    );
    expect(build.repairs).toEqual([]);
    // One install, never a second one into the same failure.
    expect(build.steps.filter((s) => s.name === 'install').length).toBe(1);
    expect(await logLines(app, build.id)).toContainEqual(
      expect.stringMatching(/^RepairBot: Nothing to repair: .*Not building again into the same failure\.$/),
    );
    const fix = await post(app, `/api/builds/${build.id}/fix`);
    expect(fix.status).toBe(409);
    expect((await json<{ code: string }>(fix)).code).toBe('NOTHING_TO_FIX');
  });
});
