import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Diagnosis, type BuildError } from '@forge/shared';
import { detectBlueprint } from '../detect/index.ts';
import { makeTempDir } from '../../../test/support/temp-files.ts';
import { onPath } from '../toolchains/stack-tool.ts';
import { diagnose } from './index.ts';

/**
 * A Jekyll site's Gemfile that Bundler cannot install, run with the real Bundler and the install the
 * plan names: a source it cannot reach is NETWORK_AT_BUILD naming the host, a gem the source lacks
 * is PACKAGE_NOT_ON_REGISTRY naming the gem.
 */

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-bundle-failure-'));
});
afterEach(() => cleanup());

async function installFailing(gemfile: string) {
  await writeFile(path.join(dir, '_config.yml'), 'title: x\n');
  await writeFile(path.join(dir, 'Gemfile'), gemfile);
  const blueprint = await detectBlueprint(dir);
  await mkdir(path.join(dir, '.gems'));
  const run = spawnSync(blueprint.install![0]!, blueprint.install!.slice(1), {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, HOME: dir, GEM_HOME: path.join(dir, '.gems') },
  });
  expect(run.status).not.toBe(0);
  const lines = `${run.stdout}\n${run.stderr}`.split('\n');
  const error: BuildError = {
    code: 'INSTALL_FAILED',
    message: `bundle install exited with code ${run.status}`,
  };
  const diagnosis = await diagnose({
    step: 'install',
    status: 'failed',
    error,
    lines,
    blueprint,
    projectDir: dir,
  });
  expect(Diagnosis.parse(diagnosis)).toEqual(diagnosis);
  return diagnosis;
}

describe.skipIf(!onPath('bundle', process.env.PATH ?? '') || !onPath('jekyll', process.env.PATH ?? ''))(
  "Bundler's install of a Jekyll site's Gemfile",
  () => {
    it('from a source it cannot reach is NETWORK_AT_BUILD naming the host', async () => {
      const diagnosis = await installFailing(
        'source "http://127.0.0.1:1"\ngem "jekyll", "~> 4.3"\ngem "jekyll-not-on-this-machine"\n',
      );
      expect(diagnosis).toMatchObject({
        code: 'NETWORK_AT_BUILD',
        file: 'Gemfile',
        subjects: ['127.0.0.1:1'],
      });
    });

    it('of a gem no source has is PACKAGE_NOT_ON_REGISTRY naming the gem', async () => {
      // No source: Bundler resolves against this machine's gems only.
      const diagnosis = await installFailing('gem "jekyll", "~> 4.3"\ngem "jekyll-not-on-this-machine"\n');
      expect(diagnosis).toMatchObject({
        code: 'PACKAGE_NOT_ON_REGISTRY',
        file: 'Gemfile',
        subjects: ['jekyll-not-on-this-machine', expect.any(String)],
      });
    });
  },
);
