import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CliResult,
  Extension,
  IntegratedApp,
  RollbackExtensionResponse,
  UploadExtensionResponse,
} from '@forge/shared';
import { forgeZip, makeZip, writeZip, type ProjectFiles } from '@forge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, Sandbox } from './helpers.ts';

// `forge ext install|ls|rm` against the real built daemon: the example extension installed, served
// from its own origin, upgraded, listed, removed; hostile and wrong files refused with exit 6.

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.withDaemon();
});
afterAll(async () => {
  await sandbox.dispose();
});

const EXAMPLE = resolve(REPO, 'examples/extensions/hello');
const exampleFiles = (): ProjectFiles =>
  Object.fromEntries(readdirSync(EXAMPLE).map((f) => [f, readFileSync(join(EXAMPLE, f))]));

/** Writes `zip` into the sandbox's working directory as `name`. */
const put = (name: string, zip: Buffer): string => {
  writeFileSync(join(sandbox.cwd, name), zip);
  return name;
};

describe('forge ext', () => {
  it('installs the example, lists it, upgrades it and removes it', async () => {
    const empty = await sandbox.run(['ext', 'ls']);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toContain('No extensions installed.');

    const install = await sandbox.run(['ext', 'install', put('hello.zip', makeZip(exampleFiles()))]);
    expect(install.code, install.stderr).toBe(0);
    expect(install.stderr).toContain('Installed hello 1.0.0: shown at /ext/hello in the workspace.');
    const url = install.stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/index\.html$/);
    expect(new URL(url).port).not.toBe(String(sandbox.state()!.port));
    expect(await (await fetch(url)).text()).toContain('Hello from an extension');

    const ls = await sandbox.run(['ext', 'ls']);
    const lines = ls.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +VERSION +ROUTE +URL$/);
    expect(lines[1]).toMatch(/^hello +1\.0\.0 +\/ext\/hello +http:\/\/127\.0\.0\.1:\d+\/index\.html$/);

    const manifest = JSON.parse(readFileSync(join(EXAMPLE, 'forge-extension.json'), 'utf8')) as object;
    const v2 = makeZip({
      ...exampleFiles(),
      'forge-extension.json': JSON.stringify({ ...manifest, version: '1.1.0' }),
    });
    const upgrade = await sandbox.run(['ext', 'install', '--json', put('hello-2.zip', v2)]);
    expect(upgrade.code, upgrade.stderr).toBe(0);
    const answer = UploadExtensionResponse.parse(JSON.parse(upgrade.stdout));
    expect(answer).toMatchObject({ upgradedFrom: '1.0.0', extension: { name: 'hello', version: '1.1.0' } });

    const json = await sandbox.run(['ext', 'ls', '--json']);
    expect(Extension.array().parse(JSON.parse(json.stdout))).toEqual([answer.extension]);

    const rollback = await sandbox.run(['ext', 'rollback', 'hello']);
    expect(rollback.code, rollback.stderr).toBe(0);
    expect(rollback.stderr).toContain(
      'Rolled back hello from 1.1.0 to 1.0.0: shown at /ext/hello. Run it again to return to 1.1.0.',
    );
    expect(rollback.stdout.trim()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/index\.html$/);
    const forward = await sandbox.run(['ext', 'rollback', 'hello', '--json']);
    expect(RollbackExtensionResponse.parse(JSON.parse(forward.stdout))).toMatchObject({
      rolledBackFrom: '1.0.0',
      extension: { version: '1.1.0', previousVersion: '1.0.0' },
    });

    const rm = await sandbox.run(['ext', 'rm', 'hello']);
    expect(rm.code).toBe(0);
    expect(rm.stderr).toContain('Uninstalled hello.');
    const again = await sandbox.run(['ext', 'rm', 'hello']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      'There is no installed extension named "hello". [EXTENSION_NOT_FOUND, HTTP 404]',
    );
    const gone = await sandbox.run(['ext', 'rollback', 'hello']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('[EXTENSION_NOT_FOUND, HTTP 404]');
  });

  it('forge apps: lists an integrated app and rolls it back to the build it replaced', async () => {
    const empty = await sandbox.run(['apps', 'ls']);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('No apps integrated.');

    const integrate = async (html: string) => {
      const zip = writeZip(sandbox.cwd, 'site.zip', { 'index.html': html });
      const upload = await sandbox.run(['upload', zip, '--wait', '--json']);
      expect(upload.code, upload.stderr).toBe(0);
      const res = await fetch(`${sandbox.state()!.url}/api/forge/integrate-last`, { method: 'POST' });
      expect(res.status).toBe(200);
      return (CliResult.parse(JSON.parse(upload.stdout)) as { buildId: string }).buildId;
    };
    const first = await integrate('<h1>one</h1>');
    const none = await sandbox.run(['apps', 'rollback', 'site']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('[NO_PREVIOUS_VERSION, HTTP 409]');
    const second = await integrate('<h1>two</h1>');

    const ls = await sandbox.run(['apps', 'ls']);
    const lines = ls.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +BUILD +PREVIOUS +ROUTE +URL$/);
    expect(lines[1]).toMatch(
      new RegExp(`^site +${second} +${first} +/apps/site +http://127\\.0\\.0\\.1:\\d+$`),
    );

    const rollback = await sandbox.run(['apps', 'rollback', 'site']);
    expect(rollback.code, rollback.stderr).toBe(0);
    expect(rollback.stderr).toContain(
      `Rolled back site from build ${second} to ${first}: shown at /apps/site.`,
    );
    expect(await (await fetch(rollback.stdout.trim())).text()).toContain('<h1>one</h1>');
    const json = await sandbox.run(['apps', 'ls', '--json']);
    expect(IntegratedApp.array().parse(JSON.parse(json.stdout))).toEqual([
      expect.objectContaining({ name: 'site', buildId: first, previousBuildId: second }),
    ]);
    const unknown = await sandbox.run(['apps', 'rollback', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no integrated app named "nope". [APP_NOT_FOUND, HTTP 404]');
  });

  it('refuses what is not an extension, with a clear message', async () => {
    const missing = await sandbox.run(['ext', 'install', 'nowhere.zip']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No such file: nowhere.zip');

    const notZip = await sandbox.run(['ext', 'install', put('page.html', Buffer.from('<h1>x</h1>'))]);
    expect(notZip.code).toBe(6);
    expect(notZip.stderr).toContain('Invalid file type');

    const big = await sandbox.run(['ext', 'install', put('big.zip', Buffer.alloc(10 * 1024 * 1024 + 1))]);
    expect(big.code).toBe(6);
    expect(big.stderr).toContain('an extension ZIP is at most 10MB');

    const traversal = forgeZip([
      { name: 'forge-extension.json', data: '{}' },
      { name: '../escape.html', data: 'x' },
    ]);
    const hostile = await sandbox.run(['ext', 'install', put('evil.zip', traversal)]);
    expect(hostile.code).toBe(6);
    expect(hostile.stderr).toContain('[ARCHIVE_PATH_TRAVERSAL, HTTP 422]');

    const badRoute = makeZip({
      ...exampleFiles(),
      'forge-extension.json': JSON.stringify({ name: 'x', displayName: 'X', route: 'x', version: '1.0.0' }),
    });
    const invalid = await sandbox.run(['ext', 'install', put('bad.zip', badRoute)]);
    expect(invalid.code).toBe(6);
    expect(invalid.stderr).toContain('forge-extension.json: "route" must be a path such as "/ext/hello"');
    expect(invalid.stderr).toContain('[EXTENSION_INVALID, HTTP 400]');

    const taken = makeZip({
      ...exampleFiles(),
      'forge-extension.json': JSON.stringify({
        name: 'x',
        displayName: 'X',
        route: '/settings',
        version: '1.0.0',
      }),
    });
    const conflict = await sandbox.run(['ext', 'install', put('taken.zip', taken)]);
    expect(conflict.code).toBe(6);
    expect(conflict.stderr).toContain('[ROUTE_TAKEN, HTTP 409]');

    expect((await sandbox.run(['ext', 'ls', '--json'])).stdout.trim()).toBe('[]');
  });
});
