import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GREETING_WSGI_APP, pythonWheel } from '@forge/testing';
import { cleanup, onCleanup, startTestApp } from './helpers.ts';
import { buildOf, logsOf } from './build-helpers.ts';
import { onPath } from '../src/capabilities/toolchains/stack-tool.ts';

// Projects of other stacks through a real daemon: a Python app built into its own virtual
// environment from a wheel the test makes (PyPI is not reachable: pip reads a --find-links folder
// in the project), and stacks whose tool is not on PATH, which end naming the tool and its install.

afterEach(cleanup);

const wheel = (name: string, version: string, module: string): Buffer => pythonWheel(name, version, module);

/** PATH without the folders that hold `tool`: the machine as one without it. */
function hideFromPath(tool: string): void {
  const before = process.env.PATH ?? '';
  process.env.PATH = before
    .split(path.delimiter)
    .filter((dir) => !fs.existsSync(path.join(dir, tool)))
    .join(path.delimiter);
  onCleanup(() => {
    process.env.PATH = before;
  });
}

describe.skipIf(!onPath('python3', process.env.PATH ?? ''))('a Python app', () => {
  it(
    'is planned with its evidence, installed with pip into its own virtual environment and previewed on PORT',
    { timeout: 180_000 },
    async () => {
      const app = await startTestApp();
      const done = await buildOf(app, 'py-wsgi', {
        'requirements.txt': '--no-index\n--find-links wheels\ngreeting==1.0\n',
        'wheels/greeting-1.0-py3-none-any.whl': wheel(
          'greeting',
          '1.0',
          "def hello():\n    return 'Hello from a Python app'\n",
        ),
        'app.py': GREETING_WSGI_APP,
      });
      if (done.status !== 'succeeded')
        throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
      const bp = done.blueprint!;
      expect(bp).toMatchObject({ stack: 'python', kind: 'server', framework: 'wsgi', packageManager: null });
      expect(bp.install).toEqual(['python', '-m', 'pip', 'install', '-r', 'requirements.txt']);
      expect(bp.start).toEqual(['python', 'app.py']);
      expect(bp.decisions).toContainEqual(
        expect.objectContaining({ field: 'stack', value: 'python', file: 'requirements.txt' }),
      );
      expect(bp.decisions).toContainEqual(expect.objectContaining({ field: 'start', file: 'app.py' }));
      expect(bp.runtime).toMatchObject({ tool: 'python3', buildable: true });
      expect(bp.runtime!.found).toMatch(/^3\.\d+\.\d+$/);
      // The virtual environment is the project's, in FORGE_HOME, not the machine's site-packages.
      expect(fs.existsSync(path.join(app.home, 'venvs', 'py-wsgi', 'pyvenv.cfg'))).toBe(true);
      const page = await (await fetch(done.previewUrl!)).text();
      expect(page).toBe('<h1>Hello from a Python app</h1>');
    },
  );

  it(
    'that fails at start is read in its own words: the exception as the first line, file:line as the place',
    { timeout: 180_000 },
    async () => {
      const app = await startTestApp();
      const done = await buildOf(app, 'py-traceback', {
        'requirements.txt': '# nothing to install\n',
        'app.py': 'import os\n\nimport missing_helpers\n\nif __name__ == "__main__":\n    pass\n',
      });
      expect(done.status).toBe('failed');
      expect(done.error).toMatchObject({
        code: 'PREVIEW_FAILED',
        firstLine: "ModuleNotFoundError: No module named 'missing_helpers'",
        location: { file: 'app.py', line: 3 },
      });
    },
  );

  it(
    "whose requirement is not in its wheelhouse fails at install with pip's words and PACKAGE_NOT_ON_REGISTRY",
    { timeout: 180_000 },
    async () => {
      const app = await startTestApp();
      const done = await buildOf(app, 'py-missing-req', {
        'requirements.txt': '--no-index\n--find-links wheels\nnot-in-the-wheelhouse==2.0\n',
        'wheels/.keep': '',
        'app.py': GREETING_WSGI_APP,
      });
      expect(done.status).toBe('failed');
      expect(done.error).toMatchObject({
        code: 'INSTALL_FAILED',
        firstLine: expect.stringMatching(/not-in-the-wheelhouse==2\.0/),
      });
      expect(done.diagnosis).toMatchObject({
        code: 'PACKAGE_NOT_ON_REGISTRY',
        file: 'requirements.txt',
        subjects: ['not-in-the-wheelhouse==2.0', 'the package index'],
      });
    },
  );

  it(
    'without python3 on PATH ends in TOOLCHAIN_UNAVAILABLE naming the install command',
    { timeout: 60_000 },
    async () => {
      const app = await startTestApp();
      hideFromPath('python3');
      const done = await buildOf(app, 'py-no-python', {
        'requirements.txt': 'flask\n',
        'app.py': 'from flask import Flask\napp = Flask(__name__)\n',
      });
      expect(done.status).toBe('failed');
      expect(done.error!.code).toBe('TOOLCHAIN_UNAVAILABLE');
      expect(done.error!.message).toMatch(
        /^Python \(requirements\.txt\) needs python3; python3 is not on this machine's PATH\. Install it with: .*python3 python3-venv$/,
      );
      expect(done.error!.hint).toMatch(/python3 python3-venv/);
      expect(done.error!.hint).not.toMatch(/package\.json/);
      expect(done.diagnosis).toMatchObject({ code: 'TOOLCHAIN_MISSING', file: 'requirements.txt' });
      expect(done.diagnosis!.suggestion).toMatch(/python3 python3-venv/);
    },
  );
});

describe('a stack whose tool is not on this machine', () => {
  it(
    'Rust: named with its evidence, the tool missing and the command that installs it',
    { timeout: 60_000 },
    async () => {
      const app = await startTestApp();
      hideFromPath('cargo');
      const done = await buildOf(app, 'rust-app', {
        'Cargo.toml': '[package]\nname = "server"\nversion = "0.1.0"\nedition = "2021"\n',
        'src/main.rs': 'fn main() { println!("hi"); }\n',
      });
      expect(done.status).toBe('failed');
      expect(done.blueprint).toMatchObject({ stack: 'rust', kind: 'unknown' });
      expect(done.blueprint!.decisions).toContainEqual(
        expect.objectContaining({ field: 'stack', value: 'rust', file: 'Cargo.toml' }),
      );
      expect(done.error!.code).toBe('TOOLCHAIN_UNAVAILABLE');
      expect(done.error!.message).toMatch(
        /^Rust \(Cargo\.toml\) needs cargo; cargo is not on this machine's PATH\. Install it with: .*apt-get install -y cargo$/,
      );
      expect(done.error!.hint).toMatch(/apt-get install -y cargo/);
      expect(done.diagnosis).toMatchObject({ code: 'TOOLCHAIN_MISSING', subjects: ['cargo'] });
    },
  );

  it('Go: the go.mod version is the need, whatever go this machine has', { timeout: 60_000 }, async () => {
    const app = await startTestApp();
    const done = await buildOf(app, 'go-new', {
      'go.mod': 'module example.com/server\n\ngo 1.99\n',
      'main.go': 'package main\n\nfunc main() {}\n',
    });
    expect(done.status).toBe('failed');
    expect(done.blueprint).toMatchObject({ stack: 'go', kind: 'server', framework: 'go' });
    expect(done.blueprint!.runtime).toMatchObject({
      tool: 'go',
      wanted: '1.99',
      minimum: '1.99',
      versionFile: 'go.mod',
    });
    expect(done.error!.code).toBe('TOOLCHAIN_UNAVAILABLE');
    expect(done.error!.message).toMatch(
      /^Go \(go\.mod\) needs go 1\.99 or newer \(go\.mod asks for 1\.99\); /,
    );
    if (fs.existsSync('/etc/debian_version')) {
      // Debian's golang-go is older than 1.99: installing it would not do, so it is not the advice.
      expect(done.error!.message).toMatch(
        /this OS's package carries 1\.[\d.]+\. Install go 1\.99 or newer another way: install Go from https:\/\/go\.dev\/dl\/$/,
      );
      expect(done.error!.hint).toMatch(
        /^This OS's go package is 1\.\d+, older than 1\.99: install go 1\.99 or newer another way/,
      );
      expect(`${done.error!.message} ${done.error!.hint}`).not.toMatch(/apt-get/);
      expect(done.diagnosis!.suggestion).toBe(done.error!.hint);
    } else {
      expect(done.error!.message).toMatch(/golang-go/);
    }
    expect(done.diagnosis).toMatchObject({
      code: 'TOOLCHAIN_MISSING',
      file: 'go.mod',
      subjects: ['go', '1.99'],
    });
  });

  it(
    "Python in a subfolder whose pyproject.toml above it asks for a newer Python than this OS's",
    { timeout: 60_000 },
    async () => {
      const app = await startTestApp();
      const done = await buildOf(app, 'py-src-layout', {
        'pyproject.toml':
          '[project]\nname = "site"\nversion = "0.1.0"\nrequires-python = ">=3.99"\ndependencies = ["django"]\n',
        'src/manage.py': 'import os\nos.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")\n',
      });
      expect(done.status).toBe('failed');
      // The app is src/, its dependencies and its Python are the project root's.
      expect(done.blueprint).toMatchObject({
        stack: 'python',
        framework: 'django',
        appDir: 'src',
        installDir: '.',
      });
      expect(done.blueprint!.runtime).toMatchObject({ minimum: '3.99', versionFile: 'pyproject.toml' });
      expect(done.blueprint!.decisions).toContainEqual(
        expect.objectContaining({ field: 'install', file: 'pyproject.toml' }),
      );
      expect(done.error!.code).toBe('TOOLCHAIN_UNAVAILABLE');
      expect(done.error!.message).toMatch(
        /^Python \(src\/manage\.py\) needs python3 3\.99 or newer \(pyproject\.toml asks for >=3\.99\); /,
      );
      if (fs.existsSync('/etc/debian_version')) {
        expect(done.error!.message).toMatch(
          /this OS's package carries 3\.[\d.]+\. Install python3 3\.99 or newer another way: install Python 3 from https:\/\/www\.python\.org\/downloads\/$/,
        );
        expect(done.diagnosis!.suggestion).toBe(done.error!.hint);
      }
      expect(done.diagnosis).toMatchObject({ code: 'TOOLCHAIN_MISSING', file: 'pyproject.toml' });
    },
  );
});

const GO_SERVER = `package main

import (
	"fmt"
	"net/http"
	"os"
)

func main() {
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<h1>Hello from Go</h1>")
	})
	http.ListenAndServe("127.0.0.1:"+os.Getenv("PORT"), nil)
}
`;

describe.skipIf(!onPath('go', process.env.PATH ?? ''))('a Go server', () => {
  it(
    'is built offline with its caches in FORGE_HOME and its binary previewed on PORT',
    { timeout: 180_000 },
    async () => {
      const app = await startTestApp();
      const done = await buildOf(app, 'go-server', {
        'go.mod': 'module example.com/server\n\ngo 1.19\n',
        'main.go': GO_SERVER,
      });
      if (done.status !== 'succeeded')
        throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
      expect(done.blueprint).toMatchObject({
        stack: 'go',
        kind: 'server',
        build: ['go', 'build', '-o', '.forge/bin/app', '.'],
      });
      expect(done.blueprint!.decisions).toContainEqual(
        expect.objectContaining({ field: 'stack', file: 'go.mod' }),
      );
      expect(fs.readdirSync(path.join(app.home, 'caches', 'go', 'build')).length).toBeGreaterThan(0);
      expect(await (await fetch(done.previewUrl!)).text()).toBe('<h1>Hello from Go</h1>');
    },
  );

  it(
    'that does not compile fails with the compiler error at file:line:col',
    { timeout: 180_000 },
    async () => {
      const app = await startTestApp();
      const done = await buildOf(app, 'go-broken', {
        'go.mod': 'module example.com/server\n\ngo 1.19\n',
        'main.go': 'package main\n\nfunc main() {\n\tmissingThing()\n}\n',
      });
      expect(done.status).toBe('failed');
      expect(done.error).toMatchObject({
        code: 'BUILD_FAILED',
        firstLine: 'undefined: missingThing',
        location: { file: 'main.go', line: 4, column: 2 },
      });
    },
  );
});

describe.skipIf(!onPath('hugo', process.env.PATH ?? ''))('a Hugo site', () => {
  it('is built with hugo and its public/ served as static pages', { timeout: 180_000 }, async () => {
    const app = await startTestApp();
    const done = await buildOf(app, 'hugo-site', {
      'hugo.toml': 'baseURL = "http://example.org/"\ntitle = "Forge Hugo"\n',
      'content/_index.md': '---\ntitle: Home\n---\nWelcome.\n',
      'layouts/index.html':
        '<!doctype html><title>{{ .Site.Title }}</title><h1>{{ .Site.Title }}</h1>{{ .Content }}',
    });
    if (done.status !== 'succeeded')
      throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
    expect(done.blueprint).toMatchObject({
      stack: 'hugo',
      kind: 'static-build',
      build: ['hugo'],
      outputDir: 'public',
    });
    expect(done.blueprint!.decisions).toContainEqual(
      expect.objectContaining({ field: 'stack', file: 'hugo.toml' }),
    );
    const page = await (await fetch(done.previewUrl!)).text();
    expect(page).toContain('<h1>Forge Hugo</h1>');
    expect(page).toContain('Welcome.');
  });
});

describe.skipIf(!onPath('php', process.env.PATH ?? ''))('a plain PHP site', () => {
  it('is served by php -S on PORT', { timeout: 120_000 }, async () => {
    const app = await startTestApp();
    const done = await buildOf(app, 'php-site', { 'index.php': '<?php echo "<h1>Hello from PHP</h1>";\n' });
    if (done.status !== 'succeeded')
      throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
    expect(done.blueprint).toMatchObject({ stack: 'php', kind: 'server', framework: 'php' });
    expect(done.blueprint!.start).toEqual(['php', '-S', '127.0.0.1:{PORT}', '-t', '.']);
    expect(await (await fetch(done.previewUrl!)).text()).toBe('<h1>Hello from PHP</h1>');
  });
});
