import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Diagnosis, type BuildError } from '@forge/shared';
import { detectBlueprint } from '../detect/index.ts';
import { FirstErrorScanner } from '../tool-output/first-error.ts';
import { makeTempDir } from '../../../test/support/temp-files.ts';
import { onPath } from '../toolchains/stack-tool.ts';
import { diagnose } from './index.ts';

/**
 * Other stacks' failures read in their own words: each project is broken on purpose, its real tool
 * is run on it (go, php, python3, hugo, jekyll, mkdocs, where this machine has them), and the output
 * goes through what the pipeline reads it with (the first error line and its place) and ScanBot.
 * The diagnosis names the same line and place, and its advice points at them.
 */

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-stack-failure-'));
});
afterEach(() => cleanup());

const has = (tool: string) => onPath(tool, process.env.PATH ?? '') !== null;

async function failing(
  files: Record<string, string>,
  step: 'build' | 'preview',
  argv: string[],
  code: BuildError['code'] = step === 'build' ? 'BUILD_FAILED' : 'PREVIEW_FAILED',
) {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  const blueprint = await detectBlueprint(dir);
  const run = spawnSync(argv[0]!, argv.slice(1), {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', NO_COLOR: '1' },
  });
  expect(run.status).not.toBe(0);
  const lines = `${run.stdout}\n${run.stderr}`.split('\n');
  const scanner = new FirstErrorScanner({ projectDir: dir });
  for (const line of lines) scanner.push(line);
  const first = scanner.result();
  const error: BuildError = {
    code,
    message: `${argv.join(' ')} exited with code ${run.status}`,
    ...(first ?? {}),
  };
  const diagnosis = await diagnose({ step, status: 'failed', error, lines, blueprint, projectDir: dir });
  expect(Diagnosis.parse(diagnosis)).toEqual(diagnosis);
  return { error, diagnosis, blueprint };
}

describe.skipIf(!has('go'))("Go's compiler", () => {
  it('a type error: first line and file:line:col, TYPE_ERROR pointing at them', async () => {
    const { error, diagnosis } = await failing(
      {
        'go.mod': 'module example.com/x\n\ngo 1.19\n',
        'main.go': 'package main\n\nfunc main() {\n\tvar n int = "text"\n\t_ = n\n}\n',
      },
      'build',
      ['go', 'build', '-o', '.forge/bin/app', '.'],
    );
    expect(error.location).toEqual({ file: 'main.go', line: 4, column: 14 });
    expect(error.firstLine).toMatch(/cannot use "text"/);
    expect(diagnosis).toMatchObject({ code: 'TYPE_ERROR', file: 'main.go', line: 4, column: 14 });
    expect(diagnosis.suggestion).toMatch(/^Fix main\.go:4:14: Go's compiler rejects it \(cannot use "text"/);
  });

  it('a syntax error is SYNTAX_ERROR at its place', async () => {
    const { error, diagnosis } = await failing(
      {
        'go.mod': 'module example.com/x\n\ngo 1.19\n',
        'main.go': 'package main\n\nfunc main() {\n\tx := \n}\n',
      },
      'build',
      ['go', 'build', '-o', '.forge/bin/app', '.'],
    );
    expect(error.firstLine).toMatch(/^syntax error/);
    expect(diagnosis).toMatchObject({ code: 'SYNTAX_ERROR', file: 'main.go', line: 5 });
  });
});

describe.skipIf(!has('php'))("PHP's errors", () => {
  it('a parse error: SYNTAX_ERROR on its line', async () => {
    const { error, diagnosis } = await failing({ 'index.php': '<?php\n$a = 1\necho $a;\n' }, 'preview', [
      'php',
      '-d',
      'display_errors=stderr',
      'index.php',
    ]);
    expect(error).toMatchObject({ location: { file: 'index.php', line: 3 } });
    expect(error.firstLine).toMatch(/^syntax error, unexpected/);
    expect(diagnosis).toMatchObject({ code: 'SYNTAX_ERROR', file: 'index.php', line: 3 });
  });

  it('a fatal error: RUNTIME_ERROR naming the uncaught error and its line', async () => {
    const { error, diagnosis } = await failing(
      { 'index.php': '<?php\n\necho not_a_function();\n' },
      'preview',
      ['php', '-d', 'display_errors=stderr', 'index.php'],
    );
    expect(error).toMatchObject({
      firstLine: 'Uncaught Error: Call to undefined function not_a_function()',
      location: { file: 'index.php', line: 3 },
    });
    expect(diagnosis).toMatchObject({
      code: 'RUNTIME_ERROR',
      file: 'index.php',
      line: 3,
      subjects: ['Error'],
    });
  });
});

describe.skipIf(!has('python3'))("Python's traceback", () => {
  it('an exception in the project: RUNTIME_ERROR at the last project frame', async () => {
    const { error, diagnosis } = await failing(
      {
        'requirements.txt': '\n',
        'app.py': 'import settings\n\nif __name__ == "__main__":\n    settings.load()\n',
        'settings.py': 'def load():\n    return {}["PORTS"]\n',
      },
      'preview',
      ['python3', 'app.py'],
    );
    expect(error).toMatchObject({
      firstLine: "KeyError: 'PORTS'",
      location: { file: 'settings.py', line: 2 },
    });
    expect(diagnosis).toMatchObject({
      code: 'RUNTIME_ERROR',
      file: 'settings.py',
      line: 2,
      subjects: ['KeyError'],
    });
    expect(diagnosis.suggestion).toMatch(/^Fix settings\.py:2: the app stopped on KeyError/);
  });

  it('a module that is not installed: MISSING_PACKAGE naming requirements.txt, no repair of package.json', async () => {
    const { diagnosis } = await failing(
      {
        'requirements.txt': '\n',
        'app.py': 'import os\nimport yaml_but_missing\nprint(os.environ["PORT"])\n',
      },
      'preview',
      ['python3', 'app.py'],
    );
    expect(diagnosis).toMatchObject({
      code: 'MISSING_PACKAGE',
      file: 'app.py',
      line: 2,
      subjects: ['yaml_but_missing'],
    });
    expect(diagnosis.repair).toBeUndefined();
    expect(diagnosis.suggestion).toMatch(/to requirements\.txt/);
  });

  it('a syntax error: SYNTAX_ERROR', async () => {
    const { diagnosis } = await failing(
      { 'requirements.txt': '\n', 'app.py': 'def broken(:\n    pass\n' },
      'preview',
      ['python3', 'app.py'],
    );
    expect(diagnosis).toMatchObject({ code: 'SYNTAX_ERROR', file: 'app.py', line: 1 });
  });
});

describe.skipIf(!has('hugo'))("Hugo's templates", () => {
  it('a template that does not parse: the first line, the template as the place', async () => {
    const { error, diagnosis } = await failing(
      {
        'hugo.toml': 'baseURL = "http://example.org/"\ntitle = "x"\n',
        'content/_index.md': '---\ntitle: Home\n---\n',
        'layouts/index.html': '<h1>{{ .Site.Title }</h1>\n',
      },
      'build',
      ['hugo'],
    );
    expect(error.firstLine).toMatch(/^parse failed: template: index\.html:1: unexpected "}" in operand$/);
    expect(error.location).toEqual({ file: 'layouts/index.html', line: 1, column: 1 });
    expect(diagnosis).toMatchObject({ code: 'SYNTAX_ERROR', file: 'layouts/index.html', line: 1 });
  });

  it('a template that fails to render: RUNTIME_ERROR at its place', async () => {
    const { error, diagnosis } = await failing(
      {
        'hugo.toml': 'baseURL = "http://example.org/"\ntitle = "x"\n',
        'content/_index.md': '---\ntitle: Home\n---\n',
        'layouts/index.html': '<h1>{{ .Site.Nope.Deeper }}</h1>\n',
      },
      'build',
      ['hugo'],
    );
    expect(error.firstLine).toMatch(/^execute of template failed: .*can't evaluate field Nope/);
    expect(error.location).toEqual({ file: 'layouts/index.html', line: 1, column: 12 });
    expect(diagnosis).toMatchObject({ code: 'RUNTIME_ERROR', file: 'layouts/index.html', line: 1 });
  });
});

describe.skipIf(!has('jekyll'))("Jekyll's own words", () => {
  it('a Liquid syntax error names the page', async () => {
    const { error, diagnosis } = await failing(
      {
        '_config.yml': 'title: x\n',
        '_layouts/default.html': '{{ content }}\n',
        'index.md': '---\nlayout: default\n---\n{% if x %}\nnever closed\n',
      },
      'build',
      ['jekyll', 'build'],
    );
    expect(error.firstLine).toBe(
      "Liquid Exception: Liquid syntax error (line 3): 'if' tag was never closed in index.md",
    );
    expect(diagnosis).toMatchObject({ code: 'SYNTAX_ERROR' });
  });

  it('a plugin this machine lacks is MISSING_PACKAGE naming the gem and _config.yml', async () => {
    const { error, diagnosis } = await failing(
      { '_config.yml': 'title: x\nplugins:\n  - jekyll-not-a-real-plugin\n', '_posts/.keep': '' },
      'build',
      ['jekyll', 'build'],
    );
    expect(error.firstLine).toBe(
      "Dependency Error: It looks like you don't have jekyll-not-a-real-plugin or one of its dependencies installed.",
    );
    expect(diagnosis).toMatchObject({
      code: 'MISSING_PACKAGE',
      file: '_config.yml',
      subjects: ['jekyll-not-a-real-plugin'],
    });
  });
});

describe.skipIf(!has('mkdocs'))("MkDocs' own words", () => {
  it('a theme this machine lacks is the first line', async () => {
    const { error } = await failing(
      { 'mkdocs.yml': 'site_name: x\ntheme:\n  name: material\n', 'docs/index.md': '# x\n' },
      'build',
      ['mkdocs', 'build'],
    );
    expect(error.firstLine).toMatch(/^Config value 'theme': Unrecognised theme name: 'material'/);
  });
});
