import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Build, UploadResult } from '@forge/shared';
import { cleanup, startTestApp, tempDir } from './helpers.ts';
import { makeZip, upload, watch, logsOf } from './build-helpers.ts';
import { onPath } from '../src/capabilities/toolchains/stack-tool.ts';

// A PHP site with a composer.lock: Forge runs `composer install` from the lock before serving it with
// php -S. Packagist is not reachable here, so the package comes from a path repository inside the
// project, and the lock is written by the real composer from it before the upload.

afterEach(cleanup);

const SITE: Record<string, string> = {
  'composer.json': JSON.stringify({
    name: 'forge/site',
    require: { php: '>=8.1', 'forge/greeter': '1.0.0' },
    repositories: [{ type: 'path', url: 'packages/greeter', options: { symlink: false } }],
  }),
  'packages/greeter/composer.json': JSON.stringify({
    name: 'forge/greeter',
    version: '1.0.0',
    autoload: { 'psr-4': { 'Forge\\Greeter\\': 'src/' } },
  }),
  'packages/greeter/src/Greeter.php':
    "<?php\nnamespace Forge\\Greeter;\n\nfinal class Greeter\n{\n    public static function hello(): string\n    {\n        return 'Hello from Composer';\n    }\n}\n",
  'index.php':
    "<?php\nrequire __DIR__ . '/vendor/autoload.php';\necho '<h1>' . \\Forge\\Greeter\\Greeter::hello() . '</h1>';\n",
};

/** composer.lock as composer writes it for SITE (resolved from the path repository, no network). */
function lockOf(files: Record<string, string>): string {
  const dir = tempDir('forge-composer-');
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  execFileSync('composer', ['update', '--no-interaction', '--no-install', '--no-audit'], {
    cwd: dir,
    env: { ...process.env, COMPOSER_HOME: path.join(dir, '.composer-home') },
    stdio: 'pipe',
  });
  return fs.readFileSync(path.join(dir, 'composer.lock'), 'utf8');
}

const has = (tool: string) => onPath(tool, process.env.PATH ?? '') !== null;

describe.skipIf(!has('php') || !has('composer'))('a PHP site with a composer.lock', () => {
  it('is installed with composer from its lock and served by php -S', { timeout: 180_000 }, async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const files = { ...SITE, 'composer.lock': lockOf(SITE) };
    const result = (await (await upload(app, makeZip('php-composer.zip', files))).json()) as UploadResult;
    const done: Build = await live.finished(result.buildId!, 170_000);
    if (done.status !== 'succeeded')
      throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
    expect(done.blueprint).toMatchObject({
      stack: 'php',
      framework: 'php',
      install: ['composer', 'install', '--no-interaction', '--no-dev'],
      start: ['php', '-S', '127.0.0.1:{PORT}', '-t', '.'],
    });
    expect(done.blueprint!.decisions).toContainEqual(
      expect.objectContaining({ field: 'install', file: 'composer.lock' }),
    );
    expect(done.blueprint!.runtime).toMatchObject({
      tool: 'php',
      minimum: '8.1',
      versionFile: 'composer.json',
    });
    expect(await logsOf(app, done.id)).toMatch(/Installing forge\/greeter \(1\.0\.0\)/);
    expect(await (await fetch(done.previewUrl!)).text()).toBe('<h1>Hello from Composer</h1>');
  });
});
