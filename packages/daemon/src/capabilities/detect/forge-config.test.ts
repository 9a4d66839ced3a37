import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '@forge/shared';
import { BlueprintError } from './blueprint-error.ts';
import { detectBlueprint } from './detect-blueprint.ts';
import { decision, useProjects, type ProjectTree } from '../../../test/support/detect-project.ts';

const makeProject = useProjects();

const viteApp = {
  name: 'app',
  scripts: { build: 'vite build', test: 'vitest run' },
  devDependencies: { vite: '^8' },
};

const detect = async (tree: ProjectTree) => detectBlueprint(await makeProject(tree));

async function detectError(tree: ProjectTree): Promise<BlueprintError> {
  const error = await detect(tree).then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(BlueprintError);
  return error as BlueprintError;
}

describe('overrides from the project forge config', () => {
  it('applies every setting from .forgerc.json and records each with its file', async () => {
    const bp = await detect({
      'package.json': viteApp,
      '.forgerc.json': JSON.stringify({
        install: 'npm install --legacy-peer-deps',
        build: ['npm', 'run', 'build:prod'],
        test: false,
        outputDir: './public/app/',
        env: { NODE_ENV: 'production', API_PORT: 8080, ENABLED: true },
        timeout: '5m',
      }),
    });
    expect(bp).toMatchObject({
      kind: 'static-build',
      install: ['npm', 'install', '--legacy-peer-deps'],
      build: ['npm', 'run', 'build:prod'],
      test: null,
      outputDir: 'public/app',
      env: { NODE_ENV: 'production', API_PORT: '8080', ENABLED: 'true' },
      timeoutMs: 300_000,
    });
    for (const field of ['install', 'build', 'test', 'outputDir', 'env', 'timeoutMs']) {
      expect(decision(bp, field).file).toBe('.forgerc.json');
    }
    expect(decision(bp, 'test').rule).toContain('false in the forge config skips it');
    expect(decision(bp, 'forgeConfig')).toMatchObject({ value: '.forgerc.json', file: '.forgerc.json' });
  });

  it('reads the "forge" key in package.json first, then the rc files in cosmiconfig order', async () => {
    const bp = await detect({
      'package.json': { ...viteApp, forge: { outputDir: 'from-package-json' } },
      '.forgerc.yaml': 'outputDir: from-yaml\n',
    });
    expect(bp.outputDir).toBe('from-package-json');
    expect(decision(bp, 'outputDir').file).toBe('package.json');
    expect(bp.decisions.find((d) => d.file === '.forgerc.yaml')).toMatchObject({
      field: 'forgeConfig',
      value: 'ignored',
      rule: expect.stringContaining('already read from package.json'),
    });
  });

  it('reads YAML, extensionless rc and .config/ forms', async () => {
    const yaml = await detect({
      'package.json': viteApp,
      '.forgerc.yml': "# comment\nstart: node server.js --port '$PORT'\n",
    });
    expect(yaml.start).toEqual(['node', 'server.js', '--port', '$PORT']);
    const rc = await detect({ 'package.json': viteApp, '.forgerc': '{ "timeout": 90000 }' });
    expect(rc.timeoutMs).toBe(90_000);
    const dotConfig = await detect({ 'package.json': viteApp, '.config/forgerc.yaml': 'timeout: 1h30m' });
    expect(dotConfig.timeoutMs).toBe(5_400_000);
    expect(decision(dotConfig, 'timeoutMs').file).toBe('.config/forgerc.yaml');
  });

  it('skips an empty config file, as cosmiconfig does', async () => {
    const bp = await detect({
      'package.json': viteApp,
      '.forgerc.json': '  \n',
      '.forgerc.yaml': 'outputDir: www',
    });
    expect(bp.outputDir).toBe('www');
  });

  it('turns the project into a server when the config sets start, and back when it turns start off', async () => {
    const server = await detect({
      'package.json': viteApp,
      '.forgerc.json': '{ "start": "node server.mjs" }',
    });
    expect(server).toMatchObject({ kind: 'server', start: ['node', 'server.mjs'], outputDir: null });
    expect(decision(server, 'kind')).toMatchObject({ value: 'server', file: '.forgerc.json' });

    const express = { name: 's', scripts: { start: 'node index.js' }, dependencies: { express: '^5' } };
    const staticAgain = await detect({
      'package.json': express,
      '.forgerc.json': '{ "start": false, "outputDir": "public" }',
    });
    expect(staticAgain).toMatchObject({ kind: 'static', start: null, outputDir: 'public' });
  });

  it('makes a project with no framework buildable with a build command and an output dir', async () => {
    const bp = await detect({
      Makefile: 'all:\n\techo hi',
      '.forgerc.yaml': 'build: make site\noutputDir: _site\n',
    });
    expect(bp).toMatchObject({
      kind: 'static-build',
      build: ['make', 'site'],
      outputDir: '_site',
      hasPackageJson: false,
    });
  });
});

describe('the app setting', () => {
  const twoApps: ProjectTree = {
    'apps/web/package.json': viteApp,
    'apps/admin/package.json': { ...viteApp, name: 'admin' },
  };

  it('picks the app to build, in canonical form, and says where that came from', async () => {
    const bp = await detect({ ...twoApps, '.forgerc.yaml': 'app: ./apps/admin/\n' });
    expect(bp.appDir).toBe('apps/admin');
    expect(decision(bp, 'app')).toMatchObject({
      value: 'apps/admin',
      rule: expect.stringMatching(/^asked for by "app" in \.forgerc\.yaml/),
    });
  });

  it('is an error naming the apps when the folder holds none', async () => {
    const error = await detectError({
      ...twoApps,
      'package.json': { name: 'root', forge: { app: 'apps/api' } },
    });
    expect(error).toMatchObject({ code: 'BLUEPRINT_UNKNOWN_APP', file: 'package.json' });
    expect(error.message).toContain('The apps Forge found: apps/admin (vite), apps/web (vite).');
  });

  it("is ignored, with a decision, in an app's own forge config", async () => {
    const bp = await detect({ ...twoApps, 'apps/web/.forgerc.json': '{ "app": "apps/admin" }' });
    expect(bp.appDir).toBe('apps/web');
    expect(decision(bp, 'app')).toMatchObject({ value: 'ignored', file: 'apps/web/.forgerc.json' });
  });
});

describe('executable config', () => {
  it('is never loaded, and the plan says it was ignored', async () => {
    const projectDir = await makeProject({
      'package.json': viteApp,
      'forge.config.js':
        "require('fs').writeFileSync(require('path').join(__dirname, 'PWNED'), 'x'); module.exports = { outputDir: 'evil' };",
      '.forgerc.mjs':
        "import fs from 'node:fs'; fs.writeFileSync(new URL('./PWNED2', import.meta.url), 'x'); export default { outputDir: 'evil' };",
      '.config/forgerc.ts': 'export default { outputDir: "evil" }',
    });
    const bp = await detectBlueprint(projectDir);
    expect(bp.outputDir).toBe('dist');
    const ignored = bp.decisions
      .filter((d) => d.field === 'forgeConfig' && d.value === 'ignored')
      .map((d) => d.file);
    expect(ignored.sort()).toEqual(['.config/forgerc.ts', '.forgerc.mjs', 'forge.config.js']);
    expect(decision(bp, 'forgeConfig').rule).toContain('ignored: executable config is not loaded');
    await expect(fs.access(path.join(projectDir, 'PWNED'))).rejects.toThrow();
    await expect(fs.access(path.join(projectDir, 'PWNED2'))).rejects.toThrow();
  });

  it('does not stop a JSON config beside it from being read', async () => {
    const bp = await detect({
      'package.json': viteApp,
      'forge.config.ts': 'export default { outputDir: "evil" }',
      'forge.config.json': '{ "outputDir": "good" }',
    });
    expect(bp.outputDir).toBe('good');
  });
});

describe('invalid overrides', () => {
  it.each<[string, string, string, RegExp]>([
    ['unknown setting', '{ "outDir": "x" }', 'outDir', /unknown setting/],
    ['shell syntax in a command', '{ "build": "npm run build && npm test" }', 'build', /needs a shell/],
    ['a variable in a command', '{ "start": "node $ENTRY" }', 'start', /variables/],
    ['an unterminated quote', '{ "build": "echo \'hi" }', 'build', /unterminated single quote/],
    ['an empty command array', '{ "test": [] }', 'test', /expected a command/],
    ['a number as command', '{ "install": 42 }', 'install', /expected a command/],
    ['an output dir outside the project', '{ "outputDir": "../../etc" }', 'outputDir', /inside the project/],
    ['an absolute output dir', '{ "outputDir": "/var/www" }', 'outputDir', /inside the project/],
    ['a bad env name', '{ "env": { "MY VAR": "x" } }', 'env.MY VAR', /variable names/],
    ['a nested env value', '{ "env": { "A": { "b": 1 } } }', 'env.A', /expected a string/],
    ['env as a list', '{ "env": ["A=1"] }', 'env', /map of variable names/],
    ['an unreadable timeout', '{ "timeout": "soon" }', 'timeout', /duration/],
    [
      'a bare number in quotes (seconds or milliseconds?)',
      '{ "timeout": "90" }',
      'timeout',
      /duration such as 90s/,
    ],
    ['a zero timeout', '{ "timeout": 0 }', 'timeout', /1 second to 24 hours/],
    ['a timeout of a week', '{ "timeout": "168h" }', 'timeout', /1 second to 24 hours/],
    ['an app outside the project', '{ "app": "../other" }', 'app', /inside the project/],
    ['an app that is not a folder name', '{ "app": ["apps/web"] }', 'app', /expected a folder/],
  ])('rejects %s, naming the file and the field', async (_label, json, field, message) => {
    const error = await detectError({ 'package.json': viteApp, '.forgerc.json': json });
    expect(error.code).toBe('BLUEPRINT_INVALID_CONFIG');
    expect(error.status).toBe(422);
    expect(error.file).toBe('.forgerc.json');
    expect(error.message).toContain('Invalid forge config in .forgerc.json');
    expect(error.message).toContain(`${field}:`);
    expect(error.issues).toContainEqual({ field, message: expect.stringMatching(message) });
    expect(error.toBody()).toMatchObject({
      code: 'BLUEPRINT_INVALID_CONFIG',
      details: { file: '.forgerc.json' },
    });
  });

  it('names package.json and its "forge" key', async () => {
    const error = await detectError({ 'package.json': { ...viteApp, forge: { timeout: 'later' } } });
    expect(error.file).toBe('package.json');
    expect(error.message).toContain('package.json ("forge" key)');
    expect(error.message).toContain('timeout:');
  });

  it('rejects a config that is not an object, or not parseable', async () => {
    const notObject = await detectError({ 'package.json': viteApp, '.forgerc.yaml': '- a\n- b\n' });
    expect(notObject.issues).toEqual([{ field: '(root)', message: 'expected an object of settings' }]);
    const broken = await detectError({ 'package.json': viteApp, '.forgerc.json': '{ "build": ' });
    expect(broken.message).toContain('Cannot parse the forge config .forgerc.json');
    expect(broken.message).not.toContain(path.sep + 'tmp');
  });

  it('does not follow $import to other files', async () => {
    const error = await detectError({
      'package.json': viteApp,
      '.forgerc.json': '{ "$import": "/etc/passwd" }',
    });
    expect(error.issues).toContainEqual({
      field: '$import',
      message: expect.stringContaining('unknown setting'),
    });
  });

  it('has a catalogue entry for each code', () => {
    expect(ERROR_CATALOGUE.BLUEPRINT_INVALID_CONFIG.status).toBe(422);
    expect(ERROR_CATALOGUE.BLUEPRINT_INVALID_PACKAGE_JSON.status).toBe(422);
    expect(ERROR_CATALOGUE.BLUEPRINT_UNKNOWN_APP.status).toBe(422);
  });
});
