import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Blueprint, blueprintLines } from '@forge/shared';
import { BlueprintError } from './blueprint-error.ts';
import { DEFAULT_STAGE_TIMEOUT_MS, detectBlueprint } from './detect-blueprint.ts';
import { MAX_READ_BYTES } from './project-files.ts';
import { decision, useProjects } from '../../../test/support/detect-project.ts';

const makeProject = useProjects();

const outside: string[] = [];
afterEach(async () => {
  await Promise.all(outside.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});
async function outsideDir(files: Record<string, string>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-outside-'));
  outside.push(dir);
  for (const [name, text] of Object.entries(files)) await fs.writeFile(path.join(dir, name), text);
  return dir;
}

describe('broken package.json', () => {
  it.each([
    ['not JSON', '{ "name": "app", }', /package\.json is not valid JSON/],
    ['not an object', '["a"]', /must hold a JSON object/],
    ['empty', '', /package\.json is not valid JSON/],
  ])('is a clear error when it is %s', async (_label, text, message) => {
    const dir = await makeProject({ 'package.json': text, 'index.html': '<h1>x</h1>' });
    const error = await detectBlueprint(dir).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(BlueprintError);
    expect(error).toMatchObject({
      code: 'BLUEPRINT_INVALID_PACKAGE_JSON',
      status: 422,
      file: 'package.json',
    });
    expect((error as Error).message).toMatch(message);
  });

  it('is refused when larger than the read cap instead of being read whole', async () => {
    const big = JSON.stringify({ name: 'big', description: 'x'.repeat(MAX_READ_BYTES) });
    const dir = await makeProject({ 'package.json': big });
    await expect(detectBlueprint(dir)).rejects.toMatchObject({
      code: 'BLUEPRINT_INVALID_PACKAGE_JSON',
      message: expect.stringContaining(`up to ${MAX_READ_BYTES} bytes`),
    });
  });

  it('tolerates a BOM and ignores scripts that are not strings', async () => {
    const text =
      '\uFEFF' + JSON.stringify({ name: 'a', scripts: { build: 'node b.js', start: 42, test: null } });
    const bp = await detectBlueprint(await makeProject({ 'package.json': text }));
    expect(bp).toMatchObject({
      kind: 'static-build',
      build: ['npm', 'run', 'build'],
      start: null,
      test: null,
    });
  });
});

describe('scripts', () => {
  it("skips npm's placeholder test script but keeps a real one", async () => {
    const placeholder = await detectBlueprint(
      await makeProject({
        'package.json': {
          name: 'a',
          scripts: { build: 'x', test: 'echo "Error: no test specified" && exit 1' },
        },
      }),
    );
    expect(placeholder.test).toBeNull();
    expect(decision(placeholder, 'test').rule).toContain("npm's placeholder");
    const real = await detectBlueprint(
      await makeProject({
        'package.json': { name: 'a', scripts: { build: 'x', test: 'node --test' } },
        'yarn.lock': '',
      }),
    );
    expect(real.test).toEqual(['yarn', 'run', 'test']);
    expect(decision(real, 'test')).toMatchObject({
      file: 'package.json',
      rule: '"test" script: node --test',
    });
  });

  it('never uses serve or preview as the start command', async () => {
    const bp = await detectBlueprint(
      await makeProject({
        'package.json': { name: 'a', scripts: { serve: 'node server.js', preview: 'node server.js' } },
        'index.html': '',
      }),
    );
    expect(bp).toMatchObject({ kind: 'static', start: null });
    expect(decision(bp, 'start').rule).toContain('"serve" and "preview" are dev previews');
  });
});

describe('defensive reading', () => {
  it('does not follow a link out of the project, and says so', async () => {
    const elsewhere = await outsideDir({
      'package.json': JSON.stringify({ name: 'stolen', scripts: { start: 'node x.js' } }),
      'vite.config.ts': "export default { build: { outDir: 'stolen' } }",
    });
    const dir = await makeProject({ 'index.html': '<h1>x</h1>' });
    await fs.symlink(path.join(elsewhere, 'package.json'), path.join(dir, 'package.json'));
    const bp = await detectBlueprint(dir);
    expect(bp).toMatchObject({ hasPackageJson: false, kind: 'static' });
    expect(bp.decisions).toContainEqual({
      field: 'ignored',
      value: 'package.json',
      file: 'package.json',
      rule: expect.stringContaining('outside the project'),
    });
  });

  it('does not follow a linked folder out of the project', async () => {
    const elsewhere = await outsideDir({ forgerc: 'outputDir: stolen' });
    const dir = await makeProject({ 'package.json': { name: 'a', scripts: { build: 'x' } } });
    await fs.symlink(elsewhere, path.join(dir, '.config'));
    const bp = await detectBlueprint(dir);
    expect(bp.outputDir).toBe('dist');
    expect(decision(bp, 'ignored').file).toBe('.config/forgerc');
  });

  it('follows links that stay inside the project', async () => {
    const dir = await makeProject({
      'package.json': { name: 'a', scripts: { build: 'x' } },
      'configs/forge.yaml': 'outputDir: www',
    });
    await fs.symlink(path.join('configs', 'forge.yaml'), path.join(dir, '.forgerc.yaml'));
    expect((await detectBlueprint(dir)).outputDir).toBe('www');
  });

  it('reads only the head of a huge config file', async () => {
    const bp = await detectBlueprint(
      await makeProject({
        'package.json': { name: 'a', scripts: { build: 'vite build' }, devDependencies: { vite: '^8' } },
        'vite.config.ts': `export default { build: { outDir: 'early' } };\n/*${'x'.repeat(MAX_READ_BYTES * 2)}*/`,
      }),
    );
    expect(bp.outputDir).toBe('early');
  });

  it('fails plainly when the project folder does not exist', async () => {
    await expect(detectBlueprint(path.join(os.tmpdir(), 'forge-no-such-project-dir'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});

describe('the plan', () => {
  it('uses the default timeout, or the one it is given, and is a valid Blueprint', async () => {
    const dir = await makeProject({ 'index.html': '' });
    const byDefault = await detectBlueprint(dir);
    expect(byDefault.timeoutMs).toBe(DEFAULT_STAGE_TIMEOUT_MS);
    expect(decision(byDefault, 'timeoutMs')).toMatchObject({
      file: null,
      value: String(DEFAULT_STAGE_TIMEOUT_MS),
    });
    const given = await detectBlueprint(dir, { defaultTimeoutMs: 42_000 });
    expect(given.timeoutMs).toBe(42_000);
    expect(Blueprint.parse(given)).toEqual(given);
  });

  it('prints one line per decision with its evidence, and keeps project text from driving the terminal', async () => {
    const bp = await detectBlueprint(
      await makeProject({
        'package.json': {
          name: 'a',
          scripts: { build: 'vite build \u001b[2J\u001b[31mred', test: 'vitest run' },
          devDependencies: { vite: '^8' },
        },
        'pnpm-lock.yaml': '',
        '.forgerc.json': '{ "env": { "SECRET_TOKEN": "hunter2" } }',
      }),
    );
    const text = blueprintLines(bp).join('\n');
    const lines = text.split('\n');
    expect(lines).toContain('  kind             static-build');
    expect(lines).toContain('  install          pnpm install --frozen-lockfile --reporter=append-only');
    expect(lines).toContain('  output dir       dist');
    expect(lines).toContain('  env              SECRET_TOKEN');
    expect(lines).toContain('  timeout          10m00s per stage');
    const decisionLines = lines.slice(lines.indexOf('Decisions') + 1);
    expect(decisionLines).toHaveLength(bp.decisions.length);
    expect(decisionLines).toContainEqual(
      expect.stringMatching(/^ {2}packageManager +pnpm {2}\[pnpm-lock\.yaml\] pnpm-lock\.yaml present$/),
    );
    expect(decisionLines).toContainEqual(
      expect.stringMatching(/^ {2}outputDir +dist {2}\[default\] Vite's default dist\/$/),
    );
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(text).not.toContain('hunter2');
  });
});
