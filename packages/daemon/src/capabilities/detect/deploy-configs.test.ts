import { describe, expect, it } from 'vitest';
import { DecisionLog } from './decisions.ts';
import { deployBases, readDeployConfig } from './deploy-configs.ts';
import { deployCommandArgv } from './deploy-evidence.ts';
import { detectBlueprint } from './detect-blueprint.ts';
import { readPackageJson } from './package-json.ts';
import { openProject, projectFolder } from './project-files.ts';
import { decision, useProjects, type ProjectTree } from '../../../test/support/detect-project.ts';

const makeProject = useProjects();
const open = async (tree: ProjectTree) => openProject(await makeProject(tree));

describe('deploy configs', () => {
  it('reads netlify.toml: [build] with [context.production] over it, publish relative to base', async () => {
    const root = await open({
      'netlify.toml': `
[build]
  base = "site/"
  publish = "site/public"
  command = "npm run build"

[context.production]
  command = "npm run build:prod"
`,
      'site/package.json': '{}',
    });
    // At the root the config is about site/, not the root.
    expect(await readDeployConfig(root)).toMatchObject({ publish: null, command: null });
    expect(await deployBases(root)).toEqual([{ dir: 'site', file: 'netlify.toml', key: 'build.base' }]);
    const site = await readDeployConfig(projectFolder(root, 'site'));
    expect(site.publish).toEqual({ value: 'public', file: '../netlify.toml', key: 'build.publish' });
    expect(site.command).toEqual({
      value: 'npm run build:prod',
      file: '../netlify.toml',
      key: 'context.production.command',
    });
  });

  it('reads vercel.json, firebase.json (one site or several), static.json, render.yaml, amplify.yml and Procfile', async () => {
    const vercel = await readDeployConfig(
      await open({ 'vercel.json': JSON.stringify({ outputDirectory: 'build', buildCommand: 'pnpm build' }) }),
    );
    expect(vercel).toMatchObject({
      publish: { value: 'build', key: 'outputDirectory' },
      command: { value: 'pnpm build', key: 'buildCommand' },
    });
    const firebase = await readDeployConfig(
      await open({
        'firebase.json': JSON.stringify({
          hosting: [
            { target: 'app', public: 'dist/app' },
            { target: 'docs', public: '/docs/' },
          ],
        }),
      }),
    );
    expect(firebase.publish).toMatchObject({ value: 'dist/app', key: 'hosting[0].public' });
    expect(firebase.otherPublish).toEqual([
      { value: 'docs', file: 'firebase.json', key: 'hosting[1].public' },
    ]);
    expect(
      (await readDeployConfig(await open({ 'static.json': '{ "root": "public/" }' }))).publish,
    ).toMatchObject({
      value: 'public',
    });
    const render = await open({
      'render.yaml': `services:
  - type: web
    name: api
    runtime: node
    buildCommand: npm ci
    startCommand: node server.js
  - type: web
    name: site
    runtime: static
    rootDir: web
    buildCommand: npm run build
    staticPublishPath: ./dist
`,
      'web/package.json': '{}',
    });
    expect(await readDeployConfig(render)).toMatchObject({
      start: { value: 'node server.js', key: 'services[0].startCommand' },
    });
    expect(await readDeployConfig(projectFolder(render, 'web'))).toMatchObject({
      publish: { value: 'dist', file: '../render.yaml', key: 'services[1].staticPublishPath' },
      command: { value: 'npm run build' },
      start: null,
    });
    const amplify = await readDeployConfig(
      await open({
        'amplify.yml':
          'version: 1\nfrontend:\n  phases:\n    build:\n      commands: [npm run build]\n  artifacts:\n    baseDirectory: out\n',
      }),
    );
    expect(amplify.publish).toMatchObject({ value: 'out', key: 'frontend.artifacts.baseDirectory' });
    expect(
      (
        await readDeployConfig(
          await open({ Procfile: 'release: npm run migrate\nweb: node index.js start\n' }),
        )
      ).start,
    ).toEqual({
      value: 'node index.js start',
      file: 'Procfile',
      key: 'web',
    });
  });

  it('the first config that names a folder gives it; one that cannot be read is reported, not fatal', async () => {
    const config = await readDeployConfig(
      await open({
        'netlify.toml': '[build\npublish = "x"',
        'vercel.json': '{ "outputDirectory": "out" }',
        'firebase.json': '{ "hosting": { "public": "public" } }',
      }),
    );
    expect(config.publish).toMatchObject({ value: 'out', file: 'vercel.json' });
    expect(config.otherPublish).toMatchObject([{ value: 'public', file: 'firebase.json' }]);
    expect(config.unreadable).toEqual([
      { file: 'netlify.toml', reason: expect.stringContaining('cannot be parsed') },
    ]);
  });

  it('never names a folder outside the project', async () => {
    const config = await readDeployConfig(await open({ 'netlify.toml': '[build]\npublish = "../../etc"\n' }));
    expect(config.publish).toBeNull();
  });
});

describe("a deploy config's command as argv", () => {
  const pkgOf = async (pkg: object) => {
    const files = await open({ 'package.json': pkg });
    return (await readPackageJson(files, new DecisionLog()))!;
  };

  it("runs a script through the project's package manager, after dropping the platform's install", async () => {
    const pkg = await pkgOf({ scripts: { 'docs:build': 'vitepress build docs', build: 'tsc' } });
    expect(deployCommandArgv('npm install && npm run docs:build', 'pnpm', pkg)).toEqual({
      argv: ['pnpm', 'run', 'docs:build'],
      how: 'the "docs:build" script',
    });
    expect(deployCommandArgv('yarn build', 'npm', pkg)).toMatchObject({ argv: ['npm', 'run', 'build'] });
    expect(deployCommandArgv('npm run missing', 'npm', pkg)).toEqual({
      argv: null,
      why: 'it runs the "missing" script, which package.json does not have',
    });
  });

  it("runs a dependency's binary, never a program the project does not install", async () => {
    const pkg = await pkgOf({ devDependencies: { vitepress: '^1', '@11ty/eleventy': '^3' } });
    expect(deployCommandArgv('npx vitepress build docs', 'npm', pkg)).toMatchObject({
      argv: ['npm', 'exec', '--no', '--', 'vitepress', 'build', 'docs'],
    });
    expect(deployCommandArgv('eleventy --output=site', 'pnpm', pkg)).toMatchObject({
      argv: ['pnpm', 'exec', 'eleventy', '--output=site'],
    });
    expect(deployCommandArgv('hugo --minify', 'npm', pkg)).toEqual({
      argv: null,
      why: "it runs hugo, which is not one of the project's dependencies",
    });
    expect(
      deployCommandArgv('npm run a && npm run b', 'npm', await pkgOf({ scripts: { a: 'x', b: 'y' } })),
    ).toEqual({
      argv: null,
      why: 'it runs several commands, which needs a shell',
    });
    expect(deployCommandArgv('vitepress build $DOCS', 'npm', pkg).argv).toBeNull();
  });
});

describe('deploy configs in the plan', () => {
  it('a Procfile starts a server that has no start script', async () => {
    const bp = await detectBlueprint(
      await makeProject({
        'package.json': { name: 'api', dependencies: { express: '^5' } },
        Procfile: 'web: node server.js',
        'server.js': '',
      }),
    );
    expect(bp).toMatchObject({ framework: 'express', kind: 'server', start: ['node', 'server.js'] });
    expect(decision(bp, 'kind')).toMatchObject({ file: 'Procfile' });
  });

  it('a command it cannot run is said, and the build script is used', async () => {
    const bp = await detectBlueprint(
      await makeProject({
        'package.json': { name: 'site', scripts: { build: 'vite build' }, devDependencies: { vite: '^7' } },
        'netlify.toml': '[build]\ncommand = "npm run build && npm run sitemap"\npublish = "www"\n',
      }),
    );
    expect(bp).toMatchObject({ build: ['npm', 'run', 'build'], outputDir: 'dist' });
    expect(bp.decisions.filter((d) => d.field === 'deployConfig').map((d) => d.rule)).toEqual([
      'build.command in netlify.toml is not used: it runs several commands, which needs a shell',
      expect.stringContaining('build.publish = "www" in netlify.toml differs from the planned dist/'),
    ]);
  });

  it('a malformed deploy config is ignored with a decision', async () => {
    const bp = await detectBlueprint(
      await makeProject({
        'package.json': { name: 'site', scripts: { build: 'vite build' }, devDependencies: { vite: '^7' } },
        'vercel.json': '{ nope',
      }),
    );
    expect(bp.outputDir).toBe('dist');
    expect(decision(bp, 'ignored')).toMatchObject({
      value: 'vercel.json',
      rule: expect.stringContaining('cannot be parsed'),
    });
  });
});

describe("a root deploy config's base", () => {
  it('is in the plan, saying whether it is the app Forge builds', async () => {
    const bp = await detectBlueprint(
      await makeProject({
        'package.json': { name: 'repo', private: true, workspaces: ['packages/*'] },
        'netlify.toml': '[build]\nbase = "packages/docs"\npublish = "out"\ncommand = "npm run build"\n',
        'packages/docs/package.json': {
          name: 'docs',
          scripts: { build: 'vite build --outDir out' },
          devDependencies: { vite: '^7' },
        },
        'packages/docs/index.html': '<p>docs</p>',
      }),
    );
    expect(bp).toMatchObject({ appDir: 'packages/docs', outputDir: 'packages/docs/out' });
    expect(decision(bp, 'deployBase')).toEqual({
      field: 'deployBase',
      value: 'packages/docs',
      file: 'netlify.toml',
      rule: 'build.base = "packages/docs" in netlify.toml: the platform deploys the app in packages/docs/',
    });
    // The root's config applies to the app it names: its command builds it.
    expect(decision(bp, 'build')).toMatchObject({ file: 'netlify.toml' });
  });
});
