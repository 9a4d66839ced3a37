import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Blueprint } from '@forge/shared';
import { detectBlueprint } from './detect-blueprint.ts';
import { minimumVersion } from './stacks.ts';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

async function detect(files: Record<string, string>): Promise<Blueprint> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-stacks-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return detectBlueprint(root, { machine: { git: false, registry: 'https://registry.npmjs.org/' } });
}

const decision = (bp: Blueprint, field: string) => bp.decisions.find((d) => d.field === field);

describe('stacks besides JavaScript', () => {
  it.each([
    [
      'python',
      { 'requirements.txt': 'flask\n', 'app.py': 'from flask import Flask\napp = Flask(__name__)\n' },
      'requirements.txt',
      'flask',
      'server',
    ],
    [
      'python',
      {
        'pyproject.toml': '[project]\nname = "api"\ndependencies = ["fastapi", "uvicorn"]\n',
        'main.py': 'from fastapi import FastAPI\napi = FastAPI()\n',
      },
      'pyproject.toml',
      'fastapi',
      'server',
    ],
    [
      'python',
      { 'manage.py': 'import django\n', 'requirements.txt': 'django\n' },
      'requirements.txt',
      'django',
      'server',
    ],
    [
      'go',
      { 'go.mod': 'module x\n\ngo 1.19\n', 'cmd/api/main.go': 'package main\n' },
      'go.mod',
      'go',
      'server',
    ],
    [
      'deno',
      {
        'deno.json': '{"tasks":{"start":"deno run -A main.ts"}}',
        'main.ts': 'Deno.serve(() => new Response("hi"))\n',
      },
      'deno.json',
      'deno',
      'server',
    ],
    ['php', { 'index.php': '<?php echo "hi";\n' }, 'index.php', 'php', 'server'],
    [
      'php',
      { artisan: '#!/usr/bin/env php\n', 'composer.json': '{"require":{"php":"^8.1"}}' },
      'artisan',
      'laravel',
      'server',
    ],
    [
      'hugo',
      {
        'hugo.toml': 'baseURL = "https://example.org/"\npublishDir = "site"\n',
        'content/_index.md': '# hi\n',
      },
      'hugo.toml',
      'hugo',
      'static-build',
    ],
    [
      'jekyll',
      { '_config.yml': 'title: x\n', Gemfile: 'gem "jekyll"\n' },
      '_config.yml',
      'jekyll',
      'static-build',
    ],
    [
      'mkdocs',
      { 'mkdocs.yml': 'site_name: x\n', 'requirements.txt': 'mkdocs\n' },
      'mkdocs.yml',
      'mkdocs',
      'static-build',
    ],
    [
      'zola',
      {
        'config.toml': 'base_url = "https://x"\n',
        'content/_index.md': '+++\n+++\n',
        'templates/index.html': '',
      },
      'config.toml',
      'zola',
      'static-build',
    ],
    ['ruby', { Gemfile: 'gem "rails"\n', '.ruby-version': '3.3.0\n' }, 'Gemfile', 'ruby', 'unknown'],
    ['rust', { 'Cargo.toml': '[package]\nname = "x"\n' }, 'Cargo.toml', 'rust', 'unknown'],
    ['java', { 'pom.xml': '<project/>' }, 'pom.xml', 'java', 'unknown'],
    ['dotnet', { 'Api.csproj': '<Project/>' }, 'Api.csproj', 'dotnet', 'unknown'],
    ['elixir', { 'mix.exs': 'defmodule X.MixProject do\nend\n' }, 'mix.exs', 'elixir', 'unknown'],
  ] as const)('%s from %s', async (stack, files, evidence, framework, kind) => {
    const bp = await detect(files);
    expect(bp).toMatchObject({
      stack,
      framework,
      kind,
      hasPackageJson: false,
      packageManager: null,
      node: null,
    });
    expect(decision(bp, 'stack')).toMatchObject({ value: stack, file: evidence });
    expect(bp.runtime?.installCommand).toBeTruthy();
    if (kind === 'unknown') expect(decision(bp, 'kind')!.rule).toMatch(/forge config/);
  });

  it('reads the version each stack asks for', async () => {
    expect(
      (await detect({ 'requirements.txt': '', '.python-version': '3.12\n', 'app.py': '' })).runtime,
    ).toMatchObject({ wanted: '3.12', minimum: '3.12', versionFile: '.python-version' });
    expect(
      (await detect({ 'pyproject.toml': '[project]\nname="x"\nrequires-python = ">=3.10,<4"\n' })).runtime,
    ).toMatchObject({ minimum: '3.10', versionFile: 'pyproject.toml' });
    expect(
      (await detect({ 'go.mod': 'module x\n\ngo 1.22\ntoolchain go1.22.3\n', 'main.go': '' })).runtime,
    ).toMatchObject({ wanted: '1.22', versionFile: 'go.mod' });
    expect(
      (await detect({ 'index.php': '', 'composer.json': '{"require":{"php":"^8.1"}}' })).runtime,
    ).toMatchObject({ minimum: '8.1', versionFile: 'composer.json' });
    expect(minimumVersion('~=3.9')).toBe('3.9');
    expect(minimumVersion('<4')).toBeNull();
  });

  it('builds Go offline with its main package and runs the binary', async () => {
    const bp = await detect({ 'go.mod': 'module x\n\ngo 1.19\n', 'main.go': 'package main\n' });
    expect(bp.build).toEqual(['go', 'build', '-o', '.forge/bin/app', '.']);
    expect(bp.start).toEqual(['./.forge/bin/app']);
    expect(bp.env).toMatchObject({ GOPROXY: 'off', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' });
  });

  it('starts Flask with gunicorn when it is a dependency, FastAPI with uvicorn', async () => {
    const flask = await detect({
      'requirements.txt': 'Flask==3.0\ngunicorn\n',
      'app.py': 'server = Flask(__name__)\n',
    });
    expect(flask.start).toEqual(['python', '-m', 'gunicorn', '--bind', '127.0.0.1:{PORT}', 'app:server']);
    const fastapi = await detect({ 'requirements.txt': 'fastapi\n', 'main.py': 'app = FastAPI()\n' });
    expect(fastapi.start).toEqual([
      'python',
      '-m',
      'uvicorn',
      'main:app',
      '--host',
      '127.0.0.1',
      '--port',
      '{PORT}',
    ]);
    const procfile = await detect({
      'requirements.txt': 'flask\n',
      Procfile: 'web: gunicorn app:app --bind 0.0.0.0:$PORT\n',
    });
    expect(procfile.start).toEqual(['gunicorn', 'app:app', '--bind', '0.0.0.0:{PORT}']);
    expect(decision(procfile, 'start')!.file).toBe('Procfile');
  });

  it('lists a Python API beside a Vite client and builds the web app by the stated rule', async () => {
    const bp = await detect({
      'api/requirements.txt': 'flask\n',
      'api/app.py': 'from flask import Flask\napp = Flask(__name__)\n',
      'client/package.json':
        '{"name":"client","scripts":{"build":"vite build"},"devDependencies":{"vite":"^5"}}',
      'client/index.html': '<div id="root"></div>',
    });
    expect(bp.appDir).toBe('client');
    expect(bp.stack).toBe('javascript');
    expect(bp.apps).toEqual([
      { dir: 'api', name: null, framework: 'flask', kind: 'server', stack: 'python' },
      { dir: 'client', name: 'client', framework: 'vite', kind: 'static-build' },
    ]);
    expect(decision(bp, 'app')!.rule).toMatch(/^a web app \(vite\); web apps come before/);
    expect(decision(bp, 'otherApp')).toMatchObject({ value: 'api', file: 'api/requirements.txt' });
  });

  it('plans the Python API when it is asked for, installing in its own folder', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-stacks-'));
    roots.push(root);
    fs.mkdirSync(path.join(root, 'api'));
    fs.writeFileSync(path.join(root, 'api/requirements.txt'), 'flask\n');
    fs.writeFileSync(path.join(root, 'api/app.py'), 'app = Flask(__name__)\n');
    const bp = await detectBlueprint(root, {
      app: 'api',
      machine: { git: false, registry: 'https://registry.npmjs.org/' },
    });
    expect(bp).toMatchObject({ stack: 'python', appDir: 'api', installDir: 'api', framework: 'flask' });
    expect(decision(bp, 'stack')!.file).toBe('api/requirements.txt');
  });
});
