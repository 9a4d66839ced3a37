import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Build, BuildLogsResponse, UploadResult } from '@forge/shared';
import { cleanup, startTestApp, tempDir, type TestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';

/**
 * The package managers Forge runs are its own: provisioned into FORGE_HOME/toolchains, with their
 * caches in FORGE_HOME/caches. The daemon here runs with a PATH on which no pnpm, Yarn or corepack
 * of the machine's is found, so a build or a repair that spawned a global one would fail.
 */

const GLOBAL_TOOLS = new Set(['pnpm', 'pnpx', 'yarn', 'yarnpkg', 'corepack']);
const BUILD_TIMEOUT_MS = 240_000;

/** One folder linking every command of PATH except the package managers above. */
function pathWithoutGlobalTools(): string {
  const bin = tempDir('forge-bare-path-');
  const linked = new Set<string>();
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (GLOBAL_TOOLS.has(name) || linked.has(name)) continue;
      linked.add(name);
      fs.symlinkSync(path.join(dir, name), path.join(bin, name));
    }
  }
  return bin;
}

let app: TestApp;
let live: Awaited<ReturnType<typeof watch>>;
const savedPath = process.env.PATH;

beforeAll(async () => {
  process.env.PATH = pathWithoutGlobalTools();
  // The sandbox's private /tmp would hide that folder; what is tested here is which tool runs.
  app = await startTestApp({ sandbox: false });
  live = await watch(app);
  const res = await fetch(`${app.url}/api/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ autoRepair: true }),
  });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await cleanup();
  process.env.PATH = savedPath;
});

async function start(name: string, files: Record<string, string>): Promise<Promise<Build>> {
  const res = await upload(app, makeZip(`${name}.zip`, files));
  const body = (await res.json()) as UploadResult;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return live.finished(body.buildId!, BUILD_TIMEOUT_MS);
}

async function logOf(buildId: string): Promise<string> {
  const res = await fetch(`${app.url}/api/builds/${buildId}/logs`);
  const body = (await res.json()) as BuildLogsResponse;
  return JSON.stringify(body);
}

const yarnProject = (name: string) => ({
  'package.json': JSON.stringify({
    name,
    private: true,
    packageManager: 'yarn@1.22.22',
    scripts: { build: 'node build.js' },
    dependencies: { 'is-number': '7.0.0', 'kind-of': '6.0.3', 'is-plain-object': '5.0.0' },
  }),
  'build.js': `const fs = require('fs');
const isNumber = require('is-number');
const kindOf = require('kind-of');
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<p>${name}: ' + isNumber(5) + ' ' + kindOf([]) + '</p>');`,
});

describe('package managers of its own, caches in FORGE_HOME, no global pnpm or yarn', () => {
  it(
    'two Yarn 1 builds of the same dependencies at once both succeed, with the cache in FORGE_HOME',
    async () => {
      const [a, b] = await Promise.all([
        start('yarn-one', yarnProject('yarn-one')),
        start('yarn-two', yarnProject('yarn-two')),
      ]);
      const [one, two] = await Promise.all([a, b]);
      for (const build of [one, two]) {
        const log = await logOf(build.id);
        expect(build.status, log).toBe('succeeded');
        expect(log).not.toMatch(/Integrity check failed|\.yarn-metadata\.json|ENOENT/);
      }
      const cache = path.join(app.home, 'caches', 'yarn');
      const entries = fs.readdirSync(
        path.join(
          cache,
          fs.readdirSync(cache).find((d) => /^v\d+$/.test(d))!,
        ),
      );
      expect(entries.some((e) => e.includes('is-number-7.0.0'))).toBe(true);
    },
    2 * BUILD_TIMEOUT_MS,
  );

  it(
    'RepairBot resolves a missing package of a pnpm project with the provisioned pnpm',
    async () => {
      const build = await await start('pnpm-missing', {
        'package.json': JSON.stringify(
          {
            name: 'pnpm-missing',
            private: true,
            packageManager: 'pnpm@9.15.0',
            scripts: { build: 'node build.js' },
            dependencies: { 'is-number': '7.0.0' },
          },
          null,
          2,
        ),
        'build.js': `const fs = require('fs');
const isNumber = require('is-number');
const kindOf = require('kind-of');
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<p>' + isNumber(1) + ' ' + kindOf({}) + '</p>');`,
      });
      const log = await logOf(build.id);
      expect(log).not.toContain('Could not start');
      expect(build.status, log).toBe('succeeded');
      expect(build.repairs?.map((r) => r.summary)).toContainEqual(
        expect.stringMatching(/^RepairBot added kind-of@\^6\.\d+\.\d+ to package\.json/),
      );
      const pkg = JSON.parse(
        fs.readFileSync(path.join(app.home, 'projects', 'pnpm-missing', 'package.json'), 'utf8'),
      ) as {
        dependencies: Record<string, string>;
      };
      expect(pkg.dependencies['kind-of']).toMatch(/^\^6\./);
    },
    BUILD_TIMEOUT_MS + 30_000,
  );
});
