import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UploadResult } from '@forge/shared';
import { makeZip, upload, watch } from './build-helpers.ts';
import { cleanup, startTestApp } from './helpers.ts';

/**
 * A committed node_modules fixture is source: it reaches the project, and changing it changes the
 * source, so CacheBot builds again instead of answering from the cache (docs/pipeline.md, "Caching").
 */

afterEach(cleanup);

const project = (fixture: string) => ({
  'package.json': JSON.stringify({ name: 'fixtures', scripts: { build: 'node build.js' } }),
  'build.js': `const fs = require('node:fs')
fs.mkdirSync('dist', { recursive: true })
fs.writeFileSync('dist/index.html', '<h1>' + require('./test/fixtures/app/node_modules/dep') + '</h1>')
`,
  'test/fixtures/app/node_modules/dep/package.json': JSON.stringify({ name: 'dep', main: 'index.js' }),
  'test/fixtures/app/node_modules/dep/index.js': `module.exports = ${JSON.stringify(fixture)}\n`,
});

describe('a committed node_modules fixture', () => {
  it('is part of the source: changing it builds again, the same upload is a cache hit', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const build = async (fixture: string) => {
      const res = await upload(app, makeZip('fixtures.zip', project(fixture)));
      const { buildId } = (await res.json()) as UploadResult;
      return live.finished(buildId!);
    };
    const first = await build('first fixture');
    expect(first).toMatchObject({ status: 'succeeded', cacheHit: false });
    expect(
      fs.existsSync(path.join(app.home, 'projects/fixtures/test/fixtures/app/node_modules/dep/index.js')),
    ).toBe(true);
    const changed = await build('changed fixture');
    expect(changed).toMatchObject({ status: 'succeeded', cacheHit: false });
    expect(await (await fetch(changed.previewUrl!)).text()).toContain('changed fixture');
    expect(await build('changed fixture')).toMatchObject({ status: 'succeeded', cacheHit: true });
  });
});
