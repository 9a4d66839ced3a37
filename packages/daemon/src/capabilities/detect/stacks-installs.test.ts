import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Blueprint } from '@forge/shared';
import { detectBlueprint } from './detect-blueprint.ts';

// The install a project's own files ask for: pipenv for a Pipfile, Bundler for a Jekyll site's
// Gemfile, pip for an MkDocs site's requirements, Composer for composer.json with or without a lock.

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

async function detect(files: Record<string, string>): Promise<Blueprint> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-installs-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return detectBlueprint(root, { machine: { git: false, registry: 'https://registry.npmjs.org/' } });
}

const decision = (bp: Blueprint, field: string) => bp.decisions.find((d) => d.field === field);

const PIPFILE = '[[source]]\nurl = "https://pypi.org/simple"\nname = "pypi"\n\n[packages]\nflask = "*"\n';

describe('a Pipfile', () => {
  it('is synced with pipenv from its Pipfile.lock, and its packages tell the framework', async () => {
    const bp = await detect({
      Pipfile: PIPFILE,
      'Pipfile.lock': '{"_meta":{},"default":{},"develop":{}}',
      'app.py': 'from flask import Flask\napp = Flask(__name__)\n',
    });
    expect(bp).toMatchObject({ stack: 'python', framework: 'flask', install: ['pipenv', 'sync'] });
    expect(decision(bp, 'install')).toMatchObject({ file: 'Pipfile.lock' });
    expect(bp.env).toMatchObject({ PIPENV_YES: '1' });
  });

  it('without a lock is installed with pipenv install, which resolves and writes the lock', async () => {
    const bp = await detect({
      Pipfile: PIPFILE,
      'app.py': 'from flask import Flask\napp = Flask(__name__)\n',
    });
    expect(bp.install).toEqual(['pipenv', 'install']);
    expect(decision(bp, 'install')).toMatchObject({
      file: 'Pipfile',
      rule: expect.stringMatching(/no Pipfile\.lock/),
    });
  });
});

describe("a Jekyll site's Gemfile", () => {
  it('is installed with Bundler and the site built with bundle exec', async () => {
    const bp = await detect({
      '_config.yml': 'title: x\n',
      Gemfile: 'source "https://rubygems.org"\ngem "jekyll"\n',
    });
    expect(bp).toMatchObject({
      stack: 'jekyll',
      install: ['sh', '-c', 'bundle check || bundle install'],
      build: ['bundle', 'exec', 'jekyll', 'build'],
    });
    expect(decision(bp, 'install')).toMatchObject({ file: 'Gemfile' });
    expect(bp.env.JEKYLL_NO_BUNDLER_REQUIRE).toBeUndefined();
  });

  it('is absent: the machine jekyll builds without Bundler', async () => {
    const bp = await detect({ '_config.yml': 'title: x\n', '_posts/2024-01-01-a.md': '# a\n' });
    expect(bp).toMatchObject({ stack: 'jekyll', install: null, build: ['jekyll', 'build'] });
    expect(bp.env.JEKYLL_NO_BUNDLER_REQUIRE).toBe('true');
  });
});

describe("an MkDocs site's requirements", () => {
  it.each(['requirements.txt', 'docs/requirements.txt'])(
    '%s is installed into the venv and mkdocs run from it',
    async (file) => {
      const bp = await detect({ 'mkdocs.yml': 'site_name: x\n', [file]: 'mkdocs-material\n' });
      expect(bp).toMatchObject({
        stack: 'mkdocs',
        install: ['python', '-m', 'pip', 'install', '-r', file],
        build: ['python', '-m', 'mkdocs', 'build'],
      });
      expect(decision(bp, 'install')).toMatchObject({ file });
    },
  );

  it('are absent: the machine mkdocs builds', async () => {
    const bp = await detect({ 'mkdocs.yml': 'site_name: x\n' });
    expect(bp).toMatchObject({ install: null, build: ['mkdocs', 'build'] });
  });
});
