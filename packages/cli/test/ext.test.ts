import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Extension, UploadExtensionResponse } from '@forge/shared';
import { forgeZip, makeZip, type ProjectFiles } from '@forge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, Sandbox } from './helpers.ts';

// `forge ext install|ls|rm` against the real built daemon: the example extension installed, served
// from its own origin, upgraded, listed, removed; hostile and wrong files refused with exit 6.

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.create();
  const start = await sandbox.run(['daemon', 'start']);
  if (start.code !== 0) throw new Error(`daemon start failed:\n${start.stderr}`);
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

    const rm = await sandbox.run(['ext', 'rm', 'hello']);
    expect(rm.code).toBe(0);
    expect(rm.stderr).toContain('Uninstalled hello.');
    const again = await sandbox.run(['ext', 'rm', 'hello']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      'There is no installed extension named "hello". [EXTENSION_NOT_FOUND, HTTP 404]',
    );
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
