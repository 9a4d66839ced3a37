import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GREETING_WSGI_APP, pythonWheel, servePythonIndex } from '@forge/testing';
import { cleanup, onCleanup, startTestApp, tempDir } from './helpers.ts';
import { buildOf, logsOf } from './build-helpers.ts';
import { onPath } from '../src/capabilities/toolchains/stack-tool.ts';

// A Pipfile project installed with pipenv into its virtual environment in FORGE_HOME, from its
// Pipfile.lock, the index being the one its Pipfile names (a package index the test serves on
// loopback: PyPI is not reachable here); without pipenv, the plan names it and its install command.

afterEach(cleanup);

const WHEEL = 'greeting-1.0-py3-none-any.whl';

const pipfile = (index: string) =>
  `[[source]]\nurl = "${index}"\nverify_ssl = false\nname = "local"\n\n[packages]\ngreeting = "==1.0"\n`;

/** Pipfile.lock as pipenv writes it for that Pipfile: the exact version and the wheel's hash. */
const lockOf = (index: string, hash: string) =>
  JSON.stringify(
    {
      _meta: {
        hash: { sha256: '0'.repeat(64) },
        'pipfile-spec': 6,
        requires: {},
        sources: [{ name: 'local', url: index, verify_ssl: false }],
      },
      default: { greeting: { hashes: [`sha256:${hash}`], index: 'local', version: '==1.0' } },
      develop: {},
    },
    null,
    4,
  );

const has = (tool: string) => onPath(tool, process.env.PATH ?? '') !== null;

describe.skipIf(!has('python3') || !has('pipenv'))('a Pipfile project', () => {
  it(
    'is synced with pipenv from its Pipfile.lock into its own virtual environment and previewed',
    { timeout: 180_000 },
    async () => {
      const index = await servePythonIndex({
        [WHEEL]: pythonWheel('greeting', '1.0', "def hello():\n    return 'Hello from pipenv'\n"),
      });
      onCleanup(() => index.close());
      const app = await startTestApp();
      const done = await buildOf(app, 'py-pipenv', {
        Pipfile: pipfile(index.url),
        'Pipfile.lock': lockOf(index.url, index.hashes[WHEEL]!),
        'app.py': GREETING_WSGI_APP,
      });
      if (done.status !== 'succeeded')
        throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
      expect(done.blueprint).toMatchObject({
        stack: 'python',
        framework: 'wsgi',
        install: ['pipenv', 'sync'],
        start: ['python', 'app.py'],
      });
      expect(done.blueprint!.decisions).toContainEqual(
        expect.objectContaining({ field: 'stack', value: 'python', file: 'Pipfile' }),
      );
      expect(done.blueprint!.decisions).toContainEqual(
        expect.objectContaining({ field: 'install', value: 'pipenv sync', file: 'Pipfile.lock' }),
      );
      // Installed into the project's virtual environment in FORGE_HOME, not pipenv's own place.
      const venv = path.join(app.home, 'venvs', 'py-pipenv');
      const sitePackages = fs
        .readdirSync(path.join(venv, 'lib'))
        .map((py) => path.join(venv, 'lib', py, 'site-packages'));
      expect(sitePackages.some((dir) => fs.existsSync(path.join(dir, 'greeting', '__init__.py')))).toBe(true);
      expect(await (await fetch(done.previewUrl!)).text()).toBe('<h1>Hello from pipenv</h1>');
    },
  );

  it(
    'without a Pipfile.lock is installed with pipenv install, which resolves the Pipfile and writes the lock',
    { timeout: 180_000 },
    async () => {
      const index = await servePythonIndex({
        [WHEEL]: pythonWheel('greeting', '1.0', "def hello():\n    return 'Hello, resolved by pipenv'\n"),
      });
      onCleanup(() => index.close());
      const app = await startTestApp();
      const done = await buildOf(app, 'py-pipenv-unlocked', {
        Pipfile: pipfile(index.url),
        'app.py': GREETING_WSGI_APP,
      });
      if (done.status !== 'succeeded')
        throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
      expect(done.blueprint!.install).toEqual(['pipenv', 'install']);
      expect(done.blueprint!.decisions).toContainEqual(
        expect.objectContaining({ field: 'install', value: 'pipenv install', file: 'Pipfile' }),
      );
      const lock = JSON.parse(
        fs.readFileSync(path.join(app.home, 'projects', 'py-pipenv-unlocked', 'Pipfile.lock'), 'utf8'),
      ) as { default: Record<string, { version: string; hashes: string[] }> };
      expect(lock.default.greeting).toMatchObject({
        version: '==1.0',
        hashes: [`sha256:${index.hashes[WHEEL]}`],
      });
      expect(await (await fetch(done.previewUrl!)).text()).toBe('<h1>Hello, resolved by pipenv</h1>');
    },
  );
});

describe.skipIf(!has('python3'))('a Pipfile project on a machine without pipenv', () => {
  it(
    'ends in TOOLCHAIN_UNAVAILABLE naming pipenv and the command that installs it',
    { timeout: 60_000 },
    async () => {
      // This machine with python3 and without pipenv: python3 alone in a folder of its own on PATH.
      const before = process.env.PATH ?? '';
      const bin = tempDir('forge-no-pipenv-');
      const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
        encoding: 'utf8',
      });
      fs.symlinkSync(python.trim(), path.join(bin, 'python3'));
      process.env.PATH = [
        bin,
        ...before.split(path.delimiter).filter((dir) => dir && !fs.existsSync(path.join(dir, 'pipenv'))),
      ].join(path.delimiter);
      onCleanup(() => {
        process.env.PATH = before;
      });
      const app = await startTestApp();
      const done = await buildOf(app, 'py-no-pipenv', {
        Pipfile: pipfile('https://pypi.org/simple'),
        'app.py': GREETING_WSGI_APP,
      });
      expect(done.status).toBe('failed');
      expect(done.blueprint!.install).toEqual(['pipenv', 'install']);
      expect(done.error!.code).toBe('TOOLCHAIN_UNAVAILABLE');
      expect(done.error!.message).toMatch(
        /^Python \(Pipfile\) installs with pipenv; pipenv is not on this machine's PATH\. Install it with: .*pipenv$/,
      );
      expect(done.error!.hint).toMatch(/install -y pipenv/);
      expect(done.diagnosis).toMatchObject({
        code: 'TOOLCHAIN_MISSING',
        file: 'Pipfile',
        subjects: ['pipenv'],
      });
      expect(done.diagnosis!.suggestion).toMatch(/install -y pipenv/);
    },
  );
});
