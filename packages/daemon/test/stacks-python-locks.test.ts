import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  GREETING_WSGI_APP,
  pythonWheel,
  pythonWheelOfFiles,
  servePythonIndex,
  type PythonIndex,
} from '@forge/testing';
import { cleanup, onCleanup, startTestApp } from './helpers.ts';
import { buildOf, logsOf } from './build-helpers.ts';
import { onPath } from '../src/capabilities/toolchains/stack-tool.ts';

// uv, Poetry and PDM projects through a real daemon, installed by pip held to their lockfile's
// versions: the index the test serves on loopback (PyPI is not reachable here) has greeting 1.0 and a
// newer 1.1, the locks pin 1.0, so the page says which one was installed.

afterEach(cleanup);

const greeting = (version: string) =>
  pythonWheel('greeting', version, `def hello():\n    return 'Hello from ${version}'\n`);

async function index(more: Record<string, Buffer> = {}): Promise<PythonIndex> {
  const served = await servePythonIndex({
    'greeting-1.0-py3-none-any.whl': greeting('1.0'),
    'greeting-1.1-py3-none-any.whl': greeting('1.1'),
    ...more,
  });
  onCleanup(() => served.close());
  return served;
}

/** uv.lock as uv writes it for a project of no [build-system] that depends on greeting. */
const uvLock = (url: string, version: string, hash: string) => `version = 1
requires-python = ">=3.9"

[[package]]
name = "greeting"
version = "${version}"
source = { registry = "${url}" }
wheels = [
    { url = "${url.replace(/\/simple$/, '')}/files/greeting-${version}-py3-none-any.whl", hash = "sha256:${hash}" },
]

[[package]]
name = "hello"
version = "0.1.0"
source = { virtual = "." }
dependencies = [
    { name = "greeting" },
]

[package.metadata]
requires-dist = [{ name = "greeting", specifier = ">=1.0" }]
`;

/**
 * A PEP 517 build backend of a few lines, as a wheel on the index: pip fetches it into an isolated
 * build environment and calls build_wheel, which packs the project's root modules with its
 * [project] name, version and dependencies. (PyPI's backends are not reachable here.)
 */
const TINY_BACKEND = pythonWheelOfFiles('tinybuild', '1.0', {
  'tinybuild/__init__.py': `import base64, hashlib, os, tomllib, zipfile

def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    with open('pyproject.toml', 'rb') as f:
        project = tomllib.load(f)['project']
    name, version = project['name'], project['version']
    info = f'{name}-{version}.dist-info'
    files = {m: open(m, 'rb').read() for m in sorted(os.listdir('.')) if m.endswith('.py')}
    meta = f'Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n'
    meta += ''.join(f'Requires-Dist: {d}\\n' for d in project.get('dependencies', []))
    files[f'{info}/METADATA'] = meta.encode()
    files[f'{info}/WHEEL'] = b'Wheel-Version: 1.0\\nGenerator: tinybuild\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n'
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
        record.append(f'{path},sha256={digest},{len(data)}')
    record.append(f'{info}/RECORD,,')
    files[f'{info}/RECORD'] = ('\\n'.join(record) + '\\n').encode()
    wheel = f'{name}-{version}-py3-none-any.whl'
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), 'w') as z:
        for path, data in files.items():
            z.writestr(path, data)
    return wheel
`,
});

const has = (tool: string) => onPath(tool, process.env.PATH ?? '') !== null;

/** The page a build's preview serves, or the build's failure with its log. */
async function pageOf(
  app: Awaited<ReturnType<typeof startTestApp>>,
  name: string,
  files: Record<string, string | Buffer>,
) {
  const done = await buildOf(app, name, files);
  if (done.status !== 'succeeded')
    throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
  return { done, page: await (await fetch(done.previewUrl!)).text() };
}

describe.skipIf(!has('python3'))('a Python project with a lockfile', () => {
  it(
    "uv: its dependencies alone (no [build-system]), at uv.lock's versions, from the index the lock names",
    { timeout: 180_000 },
    async () => {
      const served = await index();
      const app = await startTestApp();
      const { done, page } = await pageOf(app, 'py-uv', {
        'pyproject.toml':
          '[project]\nname = "hello"\nversion = "0.1.0"\nrequires-python = ">=3.9"\ndependencies = ["greeting>=1.0"]\n',
        'uv.lock': uvLock(served.url, '1.0', served.hashes['greeting-1.0-py3-none-any.whl']!),
        'app.py': GREETING_WSGI_APP,
      });
      // Unpinned, pip would take 1.1: the lock decided.
      expect(page).toBe('<h1>Hello from 1.0</h1>');
      expect(done.blueprint).toMatchObject({
        stack: 'python',
        install: ['python', '-m', 'pip', 'install', '-c', '{pins}', 'greeting>=1.0'],
        env: expect.objectContaining({ PIP_INDEX_URL: served.url }),
      });
      expect(done.blueprint!.env.PIP_EXTRA_INDEX_URL).toBeUndefined();
      expect(done.blueprint!.decisions).toContainEqual(
        expect.objectContaining({ field: 'install', file: 'uv.lock' }),
      );
      const pins = path.join(app.home, 'venvs', 'py-uv', 'forge-pins.txt');
      expect(fs.readFileSync(pins, 'utf8')).toContain('\ngreeting==1.0\n');
      expect(await logsOf(app, done.id)).toContain(
        '1 version pinned from uv.lock (venvs/py-uv/forge-pins.txt).',
      );
      // Forge's file is in the virtual environment, never among the project's files.
      expect(fs.existsSync(path.join(app.home, 'projects', 'py-uv', 'forge-pins.txt'))).toBe(false);
    },
  );

  it(
    "Poetry with package-mode = false: [tool.poetry.dependencies] at poetry.lock's versions",
    { timeout: 180_000 },
    async () => {
      const served = await index();
      const app = await startTestApp();
      const { done, page } = await pageOf(app, 'py-poetry', {
        'pyproject.toml':
          '[tool.poetry]\nname = "hello"\nversion = "0.1.0"\ndescription = ""\nauthors = []\npackage-mode = false\n\n[tool.poetry.dependencies]\npython = "^3.9"\ngreeting = "^1.0"\n\n[[tool.poetry.source]]\nname = "local"\nurl = "' +
          served.url +
          '"\npriority = "primary"\n',
        'poetry.lock': `# This file is automatically @generated by Poetry 1.8.3 and should not be changed by hand.

[[package]]
name = "greeting"
version = "1.0"
description = ""
optional = false
python-versions = "*"
files = [
    {file = "greeting-1.0-py3-none-any.whl", hash = "sha256:${served.hashes['greeting-1.0-py3-none-any.whl']}"},
]

[package.source]
type = "legacy"
url = "${served.url}"
reference = "local"

[metadata]
lock-version = "2.0"
python-versions = "^3.9"
content-hash = "0f1e"
`,
        'app.py': GREETING_WSGI_APP,
      });
      expect(page).toBe('<h1>Hello from 1.0</h1>');
      expect(done.blueprint!.install).toEqual([
        'python',
        '-m',
        'pip',
        'install',
        '-c',
        '{pins}',
        'greeting>=1.0,<2.0',
      ]);
    },
  );

  it(
    "PDM, a package built by its backend (fetched from the index): pip install . at pdm.lock's versions",
    { timeout: 180_000 },
    async () => {
      const served = await index({ 'tinybuild-1.0-py3-none-any.whl': TINY_BACKEND });
      const app = await startTestApp();
      const { done, page } = await pageOf(app, 'py-pdm', {
        'pyproject.toml': `[build-system]\nrequires = ["tinybuild"]\nbuild-backend = "tinybuild"\n\n[project]\nname = "hello"\nversion = "0.1.0"\ndependencies = ["greeting>=1.0"]\n\n[[tool.pdm.source]]\nname = "pypi"\nurl = "${served.url}"\n`,
        'pdm.lock': `# This file is @generated by PDM.\n# It is not intended for manual editing.\n\n[metadata]\ngroups = ["default"]\nstrategy = ["inherit_metadata"]\nlock_version = "4.5.0"\ncontent_hash = "sha256:9c1d"\n\n[[package]]\nname = "greeting"\nversion = "1.0"\nsummary = ""\ngroups = ["default"]\nfiles = [\n    {file = "greeting-1.0-py3-none-any.whl", hash = "sha256:${served.hashes['greeting-1.0-py3-none-any.whl']}"},\n]\n`,
        'app.py': GREETING_WSGI_APP,
      });
      expect(page).toBe('<h1>Hello from 1.0</h1>');
      expect(done.blueprint!.install).toEqual(['python', '-m', 'pip', 'install', '-c', '{pins}', '.']);
      expect(done.blueprint!.decisions).toContainEqual(
        expect.objectContaining({ field: 'index', value: served.url, file: 'pyproject.toml' }),
      );
      // The project itself was built and installed as a package (its app module in site-packages).
      const lib = path.join(app.home, 'venvs', 'py-pdm', 'lib');
      const site = fs.readdirSync(lib).map((py) => path.join(lib, py, 'site-packages'));
      expect(site.some((dir) => fs.existsSync(path.join(dir, 'hello-0.1.0.dist-info', 'METADATA')))).toBe(
        true,
      );
    },
  );

  it(
    'whose build backend the index lacks is PACKAGE_NOT_ON_REGISTRY on pyproject.toml, advising the index (not a wheels folder)',
    { timeout: 180_000 },
    async () => {
      const served = await index();
      const app = await startTestApp();
      const done = await buildOf(app, 'py-no-backend', {
        'pyproject.toml':
          '[build-system]\nrequires = ["backend-not-on-the-index>=2"]\nbuild-backend = "nowhere"\n\n[project]\nname = "hello"\nversion = "0.1.0"\ndependencies = ["greeting"]\n',
        'uv.lock': uvLock(served.url, '1.0', served.hashes['greeting-1.0-py3-none-any.whl']!),
        'app.py': GREETING_WSGI_APP,
      });
      expect(done.status).toBe('failed');
      expect(done.diagnosis).toMatchObject({
        code: 'PACKAGE_NOT_ON_REGISTRY',
        file: 'pyproject.toml',
        summary:
          "pip found no version of backend-not-on-the-index>=2 (the build backend pyproject.toml's [build-system] requires) on the index it reads.",
      });
      expect(done.diagnosis!.suggestion).toMatch(/set PIP_INDEX_URL to an index that has it/);
      expect(done.diagnosis!.suggestion).not.toMatch(/find-links/);
    },
  );

  it(
    'whose locked version the index does not have is PACKAGE_NOT_ON_REGISTRY, not a stale lock (pip calls both a conflict)',
    { timeout: 180_000 },
    async () => {
      const served = await index();
      const app = await startTestApp();
      const done = await buildOf(app, 'py-uv-gone', {
        'pyproject.toml': '[project]\nname = "hello"\nversion = "0.1.0"\ndependencies = ["greeting>=1.0"]\n',
        // Locked at a version the index has never had (yanked, or locked against another index).
        'uv.lock': uvLock(served.url, '1.0.5', '0'.repeat(64)),
        'app.py': GREETING_WSGI_APP,
      });
      expect(done.status).toBe('failed');
      expect(done.diagnosis).toMatchObject({
        code: 'PACKAGE_NOT_ON_REGISTRY',
        file: 'uv.lock',
        summary:
          'uv.lock pins greeting==1.0.5, which fits what the project asks for, but the index pip reads does not have that version.',
      });
      expect(done.diagnosis!.suggestion).toMatch(/PIP_INDEX_URL .* or run uv lock where the project is/);
    },
  );

  it(
    'whose lock is older than pyproject.toml fails at install as LOCKFILE_OUT_OF_SYNC, naming the relock',
    { timeout: 180_000 },
    async () => {
      const served = await index();
      const app = await startTestApp();
      const done = await buildOf(app, 'py-uv-stale', {
        'pyproject.toml': '[project]\nname = "hello"\nversion = "0.1.0"\ndependencies = ["greeting>=1.1"]\n',
        'uv.lock': uvLock(served.url, '1.0', served.hashes['greeting-1.0-py3-none-any.whl']!),
        'app.py': GREETING_WSGI_APP,
      });
      expect(done.status).toBe('failed');
      expect(done.error).toMatchObject({ code: 'INSTALL_FAILED' });
      expect(done.diagnosis).toMatchObject({
        code: 'LOCKFILE_OUT_OF_SYNC',
        file: 'uv.lock',
        subjects: ['greeting'],
        summary:
          'uv.lock pins greeting==1.0, but the project asks for greeting>=1.1: uv.lock is older than pyproject.toml.',
      });
      expect(done.diagnosis!.suggestion).toMatch(
        /^Run uv lock where the project is and upload the updated uv\.lock/,
      );
    },
  );
});
