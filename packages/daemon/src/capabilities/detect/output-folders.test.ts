import { describe, expect, it } from 'vitest';
import { detectBlueprint } from './detect-blueprint.ts';
import { decision, useProjects, type ProjectTree } from '../../../test/support/detect-project.ts';

const makeProject = useProjects();
const detect = async (tree: ProjectTree) => detectBlueprint(await makeProject(tree));

describe('output folders computed in configs and scripts', () => {
  it('reads --outDir of the vite build a nested npm run starts', async () => {
    const bp = await detect({
      'package.json': {
        name: 'app',
        scripts: { build: 'npm run build:client', 'build:client': 'vite build --outDir www' },
        devDependencies: { vite: '^7' },
      },
      'index.html': '<div></div>',
    });
    expect(bp).toMatchObject({ framework: 'vite', outputDir: 'www', build: ['npm', 'run', 'build'] });
    expect(decision(bp, 'outputDir').rule).toBe(
      'vite build --outDir www in the "build:client" script (run by "build")',
    );
  });

  it("lets an app's build write elsewhere in the project, never outside it", async () => {
    const bp = await detect({
      'client/package.json': {
        name: 'client',
        scripts: { build: 'vite build --outDir ../site' },
        devDependencies: { vite: '^7' },
      },
      'client/index.html': '<div></div>',
    });
    expect(bp).toMatchObject({ appDir: 'client', outputDir: 'site' });
    const out = await detect({
      'package.json': {
        name: 'app',
        scripts: { build: 'vite build --outDir ../../tmp/x' },
        devDependencies: { vite: '^7' },
      },
    });
    expect(out.outputDir).toBe('dist');
  });

  it("takes Vite's root from the CLI or from path.resolve(__dirname, …) in the config", async () => {
    const cli = await detect({
      'package.json': {
        name: 'app',
        scripts: { build: 'vite build web --outDir ../public' },
        devDependencies: { vite: '^7' },
      },
      'web/index.html': '<div></div>',
    });
    expect(cli.outputDir).toBe('public');
    expect(decision(cli, 'outputDir').rule).toContain('relative to its root web/');
    const config = await detect({
      'package.json': { name: 'app', scripts: { build: 'vite build' }, devDependencies: { vite: '^7' } },
      'vite.config.js':
        "import path from 'node:path';\nexport default { root: path.resolve(__dirname, 'src') };\n",
      'src/index.html': '<div></div>',
    });
    expect(config.outputDir).toBe('src/dist');
  });

  it('says when webpack computes its folder, and plans the default the build is then searched from', async () => {
    const bp = await detect({
      'package.json': {
        name: 'app',
        scripts: { build: 'webpack --mode production' },
        devDependencies: { webpack: '^5' },
      },
      'webpack.config.js':
        "const path = require('path');\nmodule.exports = (env) => ({ output: { path: path.resolve(__dirname, 'dist', env.target) } });\n",
    });
    expect(bp.outputDir).toBe('dist');
    expect(decision(bp, 'outputDir')).toMatchObject({
      file: 'webpack.config.js',
      rule: expect.stringContaining('computed'),
    });
  });
});
