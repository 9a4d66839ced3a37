import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Blueprint } from '@forge/shared';
import { detectBlueprint } from './detect-blueprint.ts';
import { denoRequest } from '../../engine/steps/stack-toolchain.ts';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

async function detect(files: Record<string, string>): Promise<Blueprint> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-deno-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return detectBlueprint(root, { machine: { git: false, registry: 'https://registry.npmjs.org/' } });
}

describe('a Deno project', () => {
  it('is Fresh when its import map names Fresh, with its build and start tasks', async () => {
    const bp = await detect({
      'deno.json': JSON.stringify({
        tasks: { build: 'deno run -A dev.ts build', start: 'deno run -A main.ts' },
        imports: { $fresh: 'jsr:@fresh/core@^2', preact: 'npm:preact@10' },
      }),
      'main.ts': 'import { App } from "$fresh";\n',
      'dev.ts': '',
    });
    expect(bp).toMatchObject({
      stack: 'deno',
      framework: 'fresh',
      kind: 'server',
      install: ['deno', 'cache', 'main.ts'],
      build: ['deno', 'task', 'build'],
      start: ['deno', 'task', 'start'],
    });
    expect(bp.decisions).toContainEqual(
      expect.objectContaining({ field: 'framework', value: 'fresh', rule: 'Fresh in the import map' }),
    );
  });

  it('caches the import map when no entry file is known', async () => {
    const bp = await detect({
      'deno.jsonc': '// tasks\n{ "tasks": { "start": "deno serve -A routes/app.ts" }, "imports": {} }',
      'routes/app.ts': 'export default { fetch: () => new Response("x") };\n',
    });
    expect(bp.install).toEqual(['deno', 'cache', 'routes/app.ts']);
    const none = await detect({ 'deno.json': '{ "tasks": { "start": "deno serve -A" }, "imports": {} }' });
    expect(none.install).toEqual(['deno', 'install']);
  });

  it.each([
    [{ '.dvmrc': 'v1.46.3\n' }, '1.46.3', '.dvmrc', '1.46.3'],
    [{ '.tool-versions': 'nodejs 20.1.0\ndeno 2.1.4\n' }, '2.1.4', '.tool-versions', '2.1.4'],
    [{ '.deno-version': '2\n' }, '2', '.deno-version', '2'],
    [{}, null, null, '2'],
  ])('reads the Deno version %j', async (extra, wanted, file, request) => {
    const bp = await detect({ 'deno.json': '{"tasks":{"start":"deno run -A main.ts"}}', ...extra });
    expect(bp.runtime).toMatchObject({ tool: 'deno', wanted, versionFile: file });
    expect(denoRequest(bp.runtime!)).toBe(request);
  });

  it('asks npm for the major of a partial version', () => {
    expect(denoRequest({ wanted: '>=1.40', minimum: '1.40' })).toBe('1');
  });
});
