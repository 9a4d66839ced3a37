/**
 * The commands of the stacks Forge builds besides JavaScript: Python (pip into a virtual environment
 * per project, the server the framework implies), Go (go build, the binary with PORT), PHP (php -S),
 * Deno (its tasks) and the static-site generators (their build, their output folder served).
 */
import path from 'node:path';
import { PORT_PLACEHOLDER, formatCommand, type Stack } from '@forge/shared';
import { parse as parseToml } from 'smol-toml';
import { defaultLoadersSync } from 'cosmiconfig';
import { splitCommand, type Argv } from './command-line.ts';
import type { DecisionLog } from './decisions.ts';
import type { FrameworkPlan } from './framework-context.ts';
import type { ProjectFiles } from './project-files.ts';
import { parseJson } from '../scan/jsonc.ts';
import {
  MAX_LOCK_BYTES,
  PINS_PLACEHOLDER,
  PYTHON_LOCKS,
  dependencySpecs,
  notPackagedBecause,
  lockIndexEnv,
  normalizePypi,
  parsePythonLock,
  type PyProject,
  type PythonLock,
  type PythonLockTool,
} from './python-lock.ts';

/** A stack found in a folder: the file that says so and the rule. */
export interface StackEvidence {
  stack: Exclude<Stack, 'javascript' | 'static'>;
  file: string;
  rule: string;
}

interface Planned {
  framework: FrameworkPlan;
  install: Argv | null;
  env: Record<string, string>;
}

const HOST = '127.0.0.1';

/** A Procfile's `web:` command as argv, with $PORT given as Forge's port; null when absent or unusable. */
async function procfileStart(files: ProjectFiles, log: DecisionLog): Promise<Argv | null> {
  const text = (await files.read('Procfile'))?.text;
  const web = text ? /^web:\s*(.+)$/m.exec(text)?.[1]?.trim() : undefined;
  if (!web) return null;
  try {
    return splitCommand(web.replace(/\$\{?PORT\}?/g, PORT_PLACEHOLDER));
  } catch (err) {
    log.add('start', 'not used', 'Procfile', `web: ${web} ${(err as Error).message}`);
    return null;
  }
}

const server = (framework: string, start: Argv): FrameworkPlan => ({
  framework,
  kind: 'server',
  outputDir: null,
  build: null,
  start,
});

/** The Python packages a project declares, lower-case, from requirements.txt, pyproject.toml and Pipfile. */
async function pythonDeps(files: ProjectFiles): Promise<{ names: Set<string>; file: string | null }> {
  const names = new Set<string>();
  let file: string | null = null;
  const requirements = (await files.read('requirements.txt'))?.text;
  if (requirements) {
    file = 'requirements.txt';
    for (const line of requirements.split('\n')) {
      const name = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(line)?.[1];
      if (name) names.add(name.toLowerCase().replace(/_/g, '-'));
    }
  }
  const pyproject = (await files.read('pyproject.toml'))?.text;
  if (pyproject) {
    try {
      const data = parseToml(pyproject) as {
        project?: { dependencies?: unknown };
        tool?: { poetry?: { dependencies?: Record<string, unknown> } };
      };
      const deps = [
        ...(Array.isArray(data.project?.dependencies) ? data.project.dependencies : []),
        ...Object.keys(data.tool?.poetry?.dependencies ?? {}),
      ];
      for (const dep of deps) {
        const name = typeof dep === 'string' ? /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(dep)?.[1] : null;
        if (name) names.add(name.toLowerCase().replace(/_/g, '-'));
      }
      file ??= 'pyproject.toml';
    } catch {
      // An unreadable pyproject.toml declares nothing readable; pip reports it at install.
    }
  }
  const pipfile = (await files.read('Pipfile'))?.text;
  if (pipfile) {
    try {
      const data = parseToml(pipfile) as { packages?: Record<string, unknown> };
      for (const name of Object.keys(data.packages ?? {})) names.add(name.toLowerCase().replace(/_/g, '-'));
      file ??= 'Pipfile';
    } catch {
      // An unreadable Pipfile declares nothing readable; pipenv reports it at install.
    }
  }
  return { names, file };
}

/**
 * pyproject.toml's install: `pip install .` for a package, its dependencies alone for a project its
 * tool does not build (uv and PDM without a [build-system], Poetry's package-mode = false), each with
 * the versions of its lockfile (uv.lock, poetry.lock, pdm.lock) as pip constraints and from the
 * indexes the lock names.
 */
async function pyprojectInstall(
  files: ProjectFiles,
  env: Record<string, string>,
  log: DecisionLog,
): Promise<Argv | null> {
  const text = (await files.read('pyproject.toml'))?.text ?? '';
  let pyproject: PyProject | null = null;
  try {
    pyproject = parseToml(text) as PyProject;
  } catch {
    // pip reads it again at install and reports what is wrong in its own words.
  }
  const declared = /^\[tool\.(poetry|pdm|uv|hatch)\b/m.exec(text)?.[1];
  let lock: PythonLock | null = null;
  let lockTool: PythonLockTool | null = null;
  for (const [file, tool] of PYTHON_LOCKS) {
    if (!(await files.isFile(file))) continue;
    lockTool = tool;
    const read = await files.read(file, MAX_LOCK_BYTES + 1);
    try {
      if (!read || read.truncated)
        throw new Error(`${file} is larger than ${MAX_LOCK_BYTES / 1024 / 1024} MB`);
      lock = parsePythonLock(file, tool, read.text, pyproject);
    } catch (err) {
      log.add('pins', 'none', file, `${(err as Error).message}: pip resolves the versions itself`);
    }
    break;
  }
  const tool = lockTool ?? (declared === 'hatch' ? null : ((declared as PythonLockTool | undefined) ?? null));
  // Why the project's tool would not build it as a package, or null when it would.
  const why = pyproject ? notPackagedBecause(pyproject, tool) : null;
  const packaged = why === null;
  let targets = ['.'];
  if (!packaged) {
    const { specs, refused } = dependencySpecs(pyproject!);
    if (refused.length)
      log.add(
        'dependencies',
        'not installed',
        'pyproject.toml',
        `not a requirement pip is given: ${refused.join(', ')}`,
      );
    if (specs.length === 0) {
      log.add(
        'install',
        'none',
        'pyproject.toml',
        `the project is not a package (${tool}) and declares no dependencies: nothing to install`,
      );
      return null;
    }
    targets = specs;
  }
  const what = packaged
    ? 'the project and its dependencies from pyproject.toml (PEP 517)'
    : `the dependencies pyproject.toml declares (for ${tool} the project itself is not a package: ${why})`;
  if (!lock) {
    const install = ['python', '-m', 'pip', 'install', ...targets];
    const unlocked =
      declared === 'hatch' || !declared
        ? declared
          ? '; [tool.hatch] is read by pip through the build backend, hatch itself is not run'
          : ''
        : `; ${declared} itself is not run and no ${PYTHON_LOCKS.find(([, t]) => t === declared)?.[0]} pins the versions`;
    log.add('install', formatCommand(install), 'pyproject.toml', `pip installs ${what}${unlocked}`);
    return install;
  }
  const install = ['python', '-m', 'pip', 'install', '-c', PINS_PLACEHOLDER, ...targets];
  log.add(
    'install',
    formatCommand(install),
    lock.file,
    `pip installs ${what}, held to the ${lock.pins.size} versions ${lock.file} pins (${PINS_PLACEHOLDER}: a constraints file Forge writes from it); ${lock.tool} itself is not run and the lock's hashes are not checked`,
  );
  if (lock.unpinned.length)
    log.add(
      'pins',
      'not pinned',
      lock.file,
      `pip resolves these itself: ${lock.unpinned.map((u) => `${u.name} (${u.why})`).join(', ')}`,
    );
  const names = (pyproject ? dependencySpecs(pyproject).specs : []).map((spec) =>
    normalizePypi(/^[A-Za-z0-9][A-Za-z0-9._-]*/.exec(spec)![0]),
  );
  const stale = names.filter((n) => !lock.pins.has(n) && !lock.unpinned.some((u) => u.name === n));
  if (stale.length)
    log.add(
      'pins',
      'out of date',
      lock.file,
      `${stale.join(', ')} ${stale.length === 1 ? 'is' : 'are'} in pyproject.toml but not in ${lock.file}: pip resolves ${stale.length === 1 ? 'it' : 'them'} unpinned (${lock.file} is older than pyproject.toml; ${LOCK_COMMAND[lock.tool]} updates it)`,
    );
  const index = lockIndexEnv(lock);
  Object.assign(env, index);
  if (index.PIP_INDEX_URL)
    log.add(
      'index',
      index.PIP_INDEX_URL,
      lock.tool === 'pdm' ? 'pyproject.toml' : lock.file,
      `the index ${lock.tool === 'pdm' ? '[[tool.pdm.source]] names' : `${lock.file}'s packages come from`}${index.PIP_EXTRA_INDEX_URL ? `, then ${index.PIP_EXTRA_INDEX_URL}` : ''} (PIP_INDEX_URL${index.PIP_EXTRA_INDEX_URL ? ', PIP_EXTRA_INDEX_URL' : ''})`,
    );
  return install;
}

/** The command that brings a lock up to date with pyproject.toml, by tool. */
export const LOCK_COMMAND: Record<PythonLockTool, string> = {
  uv: 'uv lock',
  poetry: 'poetry lock',
  pdm: 'pdm lock',
};

const PYTHON_ENTRIES = ['app.py', 'main.py', 'server.py', 'wsgi.py', 'application.py', 'run.py', 'api.py'];

/** Folders at a project's root that hold no app of its own. */
const NOT_APP_PACKAGES = new Set(['tests', 'test', 'docs', 'migrations', 'scripts', 'venv', 'build', 'dist']);

/**
 * The entry of an app kept in a package rather than at the root (`users/app.py`, `src/shop/__init__.py`
 * with its `create_app`): in each package at the root, then in src/, the first entry file (or the
 * package's __init__.py) that makes a Flask or FastAPI app. Null when none does.
 */
async function packageEntry(files: ProjectFiles): Promise<string | null> {
  for (const base of ['.', 'src']) {
    const dirs = (await files.listDirs(base)).filter((d) => !NOT_APP_PACKAGES.has(d) && !d.startsWith('_'));
    for (const dir of dirs) {
      const pkg = base === '.' ? dir : `${base}/${dir}`;
      if (!(await files.isFile(`${pkg}/__init__.py`))) continue;
      for (const name of [...PYTHON_ENTRIES, '__init__.py']) {
        const text = (await files.read(`${pkg}/${name}`))?.text;
        if (text && /\b(?:Flask|FastAPI)\(|^def create_app\(/m.test(text)) return `${pkg}/${name}`;
      }
    }
  }
  return null;
}

/** The variable an entry file binds an app object of `factory` to: `app = Flask(__name__)` → "app". */
const appVariable = (source: string, factory: string): string | null =>
  new RegExp(`^([A-Za-z_]\\w*)\\s*=\\s*${factory}\\(`, 'm').exec(source)?.[1] ?? null;

/**
 * Python: dependencies with pip (pipenv for a Pipfile) into the project's virtual environment (its
 * `python` first on PATH),
 * and the server its framework implies on PORT: a Procfile's web command, Django's manage.py,
 * gunicorn for a WSGI app when it is a dependency, uvicorn for FastAPI, flask run, streamlit, or the
 * entry file itself when it serves on PORT.
 */
export async function planPython(
  files: ProjectFiles,
  evidence: StackEvidence,
  appLog: DecisionLog,
  home: { files: ProjectFiles; rel: string },
): Promise<Planned> {
  // The dependencies are declared in the app's folder or above it (home.rel from it): read there,
  // and named as the files they are.
  const log = home.rel === '.' ? appLog : appLog.under(home.rel);
  const own = home.files;
  const env: Record<string, string> = { PYTHONUNBUFFERED: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1' };
  let install: Argv | null = null;
  if (await own.isFile('requirements.txt')) {
    install = ['python', '-m', 'pip', 'install', '-r', 'requirements.txt'];
    log.add(
      'install',
      formatCommand(install),
      'requirements.txt',
      "pip installs requirements.txt into the project's virtual environment",
    );
  } else if (await own.isFile('pyproject.toml')) {
    install = await pyprojectInstall(own, env, log);
  } else if (await own.isFile('Pipfile')) {
    // Pipenv installs into the environment it runs in (VIRTUAL_ENV): the project's, in FORGE_HOME.
    const locked = await own.isFile('Pipfile.lock');
    install = locked ? ['pipenv', 'sync'] : ['pipenv', 'install'];
    Object.assign(env, { PIPENV_VERBOSITY: '-1', PIPENV_YES: '1', PIPENV_NOSPIN: '1' });
    log.add(
      'install',
      formatCommand(install),
      locked ? 'Pipfile.lock' : 'Pipfile',
      locked
        ? "pipenv installs Pipfile.lock's exact versions into the project's virtual environment, from the index the Pipfile's [[source]] names"
        : "no Pipfile.lock: pipenv resolves the Pipfile's packages now (from its [[source]] index), writes Pipfile.lock and installs them into the project's virtual environment",
    );
  } else {
    log.add('install', 'none', null, 'no requirements.txt, pyproject.toml or Pipfile: nothing to install');
  }
  const deps = await pythonDeps(own);
  const depFile = deps.file ? path.posix.join(home.rel, deps.file) : evidence.file;
  const entry = (await files.firstFile(PYTHON_ENTRIES)) ?? (await packageEntry(files));
  const source = entry ? ((await files.read(entry))?.text ?? '') : '';
  // The module to import: "app" for app.py, "users.app" for users/app.py, "shop" for shop/__init__.py
  // (a package in src/ is imported by its own name: it is installed).
  const module = entry
    ? entry
        .replace(/^src\//, '')
        .replace(/(?:\/__init__)?\.py$/, '')
        .replace(/\//g, '.')
    : 'app';
  const inPackage = module.includes('.') || entry?.endsWith('__init__.py') === true;
  const django = (await files.isFile('manage.py')) ? await djangoBuild(files, appLog) : null;
  const done = (framework: string, start: Argv, file: string | null, rule: string): Planned => {
    appLog.add('framework', framework, file, rule);
    appLog.add('kind', 'server', file, 'a Python server: started with PORT, previewed where it listens');
    appLog.add('start', formatCommand(start), file, rule);
    return { framework: { ...server(framework, start), build: django }, install, env };
  };

  const procfile = await procfileStart(files, appLog);
  if (procfile)
    return done(
      deps.names.has('django') ? 'django' : 'python',
      procfile,
      'Procfile',
      "the Procfile's web command",
    );
  if (await files.isFile('manage.py')) {
    return done(
      'django',
      ['python', 'manage.py', 'runserver', `${HOST}:${PORT_PLACEHOLDER}`, '--noreload'],
      'manage.py',
      "Django's manage.py: runserver on the preview port (without its reloader)",
    );
  }
  const fastapi = appVariable(source, 'FastAPI');
  if (deps.names.has('fastapi') || fastapi) {
    const target = `${module}:${fastapi ?? 'app'}`;
    return done(
      'fastapi',
      ['python', '-m', 'uvicorn', target, '--host', HOST, '--port', PORT_PLACEHOLDER],
      entry ?? depFile,
      `FastAPI (${entry && fastapi ? `${fastapi} = FastAPI() in ${entry}` : `fastapi in ${depFile}`}): uvicorn serves ${target}`,
    );
  }
  if (deps.names.has('streamlit') && entry) {
    return done(
      'streamlit',
      [
        'python',
        '-m',
        'streamlit',
        'run',
        entry,
        '--server.port',
        PORT_PLACEHOLDER,
        '--server.address',
        HOST,
        '--server.headless',
        'true',
      ],
      depFile,
      `streamlit in ${depFile}: streamlit runs ${entry}`,
    );
  }
  const flask = appVariable(source, 'Flask');
  if (deps.names.has('flask') || flask) {
    // An app made by a factory (`def create_app():`) is named as a call: gunicorn and flask both take it.
    const variable = flask ?? (/^def create_app\(\s*\)/m.test(source) ? 'create_app()' : 'app');
    const start = deps.names.has('gunicorn')
      ? ['python', '-m', 'gunicorn', '--bind', `${HOST}:${PORT_PLACEHOLDER}`, `${module}:${variable}`]
      : [
          'python',
          '-m',
          'flask',
          '--app',
          `${module}:${variable}`,
          'run',
          '--host',
          HOST,
          '--port',
          PORT_PLACEHOLDER,
        ];
    return done(
      'flask',
      start,
      entry ?? depFile,
      deps.names.has('gunicorn')
        ? `Flask with gunicorn in ${depFile}: gunicorn serves ${module}:${variable}`
        : `Flask (${flask ? `${flask} = Flask() in ${entry}` : `flask in ${depFile}`}), no gunicorn: flask run serves ${module}:${variable}`,
    );
  }
  const wsgi = /^(application|app)\s*=/m.exec(source)?.[1];
  if (entry && deps.names.has('gunicorn') && wsgi) {
    return done(
      'wsgi',
      ['python', '-m', 'gunicorn', '--bind', `${HOST}:${PORT_PLACEHOLDER}`, `${module}:${wsgi}`],
      entry,
      `a WSGI ${wsgi} in ${entry} with gunicorn in ${depFile}`,
    );
  }
  if (entry && /__main__|serve_forever|\.run\(/.test(source)) {
    const readsPort = /environ(?:\.get)?\s*[([]\s*['"]PORT['"]|getenv\(\s*['"]PORT['"]/.test(source);
    return done(
      /wsgiref|make_server/.test(source) ? 'wsgi' : 'python',
      // A module of a package runs as one (its relative imports need it), a file at the root as a file.
      inPackage ? ['python', '-m', module] : ['python', entry],
      entry,
      `${entry} runs a server itself${readsPort ? ' and reads PORT' : ' (it does not read PORT: Forge finds the port it listens on)'}`,
    );
  }
  const why = `a Python project (${evidence.file}) with no server Forge can tell how to start: no Procfile, manage.py, FastAPI, Flask or entry file (${PYTHON_ENTRIES.join(', ')}) that serves; set "start" in the forge config`;
  appLog.add('framework', 'python', evidence.file, why);
  appLog.add('kind', 'unknown', evidence.file, why);
  return {
    framework: { framework: 'python', kind: 'unknown', outputDir: null, build: null, start: null },
    install,
    env,
  };
}

/**
 * Django's build, only where the project has what each command needs: `collectstatic` when its
 * settings set STATIC_ROOT (without it the command refuses), `migrate` when the database is an SQLite
 * file (made in the project; a database server is not something Forge provides). Read from the
 * settings module manage.py names.
 */
async function djangoBuild(files: ProjectFiles, log: DecisionLog): Promise<Argv | null> {
  const manage = (await files.read('manage.py'))?.text ?? '';
  const module = /DJANGO_SETTINGS_MODULE['"]\s*,\s*['"]([\w.]+)['"]/.exec(manage)?.[1];
  const settingsFile = module
    ? await files.firstFile([`${module.replace(/\./g, '/')}.py`, `${module.replace(/\./g, '/')}/__init__.py`])
    : null;
  if (!settingsFile) {
    log.add(
      'build',
      'none',
      'manage.py',
      'no settings module readable from manage.py: no collectstatic or migrate',
    );
    return null;
  }
  const settings = (await files.read(settingsFile))?.text ?? '';
  const commands: string[] = [];
  if (/^STATIC_ROOT\s*=/m.test(settings)) {
    commands.push('collectstatic');
    log.add(
      'collectstatic',
      'run',
      settingsFile,
      `STATIC_ROOT is set in ${settingsFile}: collectstatic gathers the static files there`,
    );
  } else {
    log.add(
      'collectstatic',
      'not run',
      settingsFile,
      `no STATIC_ROOT in ${settingsFile}: nothing to collect into`,
    );
  }
  if (/django\.db\.backends\.sqlite3/.test(settings)) {
    commands.push('migrate');
    log.add(
      'migrate',
      'run',
      settingsFile,
      `the database is SQLite (${settingsFile}): migrate makes its tables in the project`,
    );
  } else {
    log.add(
      'migrate',
      'not run',
      settingsFile,
      /DATABASES/.test(settings)
        ? `the database in ${settingsFile} is a server Forge does not provide: run migrate against it yourself`
        : `no DATABASES in ${settingsFile}`,
    );
  }
  if (commands.length === 0) return null;
  // Two manage.py commands in one step: a fixed line Forge writes, run by sh (nothing of the project in it).
  const build =
    commands.length === 1
      ? ['python', 'manage.py', commands[0]!, '--noinput']
      : ['sh', '-c', commands.map((c) => `python manage.py ${c} --noinput`).join(' && ')];
  log.add(
    'build',
    formatCommand(build),
    settingsFile,
    `Django's ${commands.join(' and ')}, from ${settingsFile}`,
  );
  return build;
}

/** Where Go builds the binary it then runs, inside the project (left out of downloads as a dotfolder). */
export const GO_BINARY = '.forge/bin/app';

/**
 * Go: `go build` of the main package (the root's, or the one cmd/<app> holds) into .forge/bin, with
 * the module cache in FORGE_HOME and no network (GOPROXY=off; a vendor/ folder is used as is), and the
 * binary started with PORT.
 */
export async function planGo(
  files: ProjectFiles,
  evidence: StackEvidence,
  log: DecisionLog,
): Promise<Planned> {
  const vendored = (await files.listDirs('.')).includes('vendor');
  const env: Record<string, string> = {
    GOPROXY: 'off',
    GOFLAGS: vendored ? '-mod=vendor' : '-mod=mod',
    GOTOOLCHAIN: 'local',
    CGO_ENABLED: '0',
  };
  log.add(
    'env',
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' '),
    evidence.file,
    `Go builds offline with this machine's go: modules come from the module cache${vendored ? ' and vendor/' : ''}, never the network`,
  );
  let pkg: string | null = null;
  let file: string | null = null;
  if (await files.isFile('main.go')) {
    pkg = '.';
    file = 'main.go';
  } else {
    const cmds = await files.listDirs('cmd');
    for (const name of cmds) {
      if (await files.isFile(`cmd/${name}/main.go`)) {
        pkg = `./cmd/${name}`;
        file = `cmd/${name}/main.go`;
        break;
      }
    }
  }
  if (!pkg || !file) {
    const why = `${evidence.file}: a Go module with no main package at the root or in cmd/<app>/ (a library); set "build" and "start" in the forge config`;
    log.add('framework', 'go', evidence.file, why);
    log.add('kind', 'unknown', evidence.file, why);
    return {
      framework: { framework: 'go', kind: 'unknown', outputDir: null, build: null, start: null },
      install: null,
      env,
    };
  }
  const build = ['go', 'build', '-o', GO_BINARY, pkg];
  const start = [`./${GO_BINARY}`];
  log.add('framework', 'go', file, `${file}: the main package`);
  log.add('build', formatCommand(build), file, `go build of ${pkg} into ${GO_BINARY}`);
  log.add('kind', 'server', file, 'a Go server: the binary runs with PORT');
  log.add('start', formatCommand(start), file, 'the binary go build wrote, with PORT');
  return {
    framework: { framework: 'go', kind: 'server', outputDir: null, build, start },
    install: null,
    env,
  };
}

/** PHP: `php -S` on the preview port, serving public/ when the site's index.php is there. */
export async function planPhp(
  files: ProjectFiles,
  evidence: StackEvidence,
  log: DecisionLog,
): Promise<Planned> {
  let install: Argv | null = null;
  if (await files.isFile('composer.json')) {
    // Without a lock Composer resolves composer.json's ranges now, as npm does without a lockfile:
    // the build gets the newest versions its repositories carry today, and the composer.lock it
    // writes stays in the project's output, so a later build can be pinned to it.
    install = ['composer', 'install', '--no-interaction', '--no-dev'];
    const locked = await files.isFile('composer.lock');
    log.add(
      'install',
      formatCommand(install),
      locked ? 'composer.lock' : 'composer.json',
      locked
        ? "Composer installs the lockfile's packages"
        : "no composer.lock: Composer resolves composer.json's requirements now (the newest versions its repositories allow) and writes composer.lock",
    );
  }
  if (await files.isFile('artisan')) {
    const start = ['php', 'artisan', 'serve', `--host=${HOST}`, `--port=${PORT_PLACEHOLDER}`];
    log.add('framework', 'laravel', 'artisan', "Laravel's artisan serves the app");
    log.add('kind', 'server', 'artisan', 'a PHP server on PORT');
    log.add('start', formatCommand(start), 'artisan', 'artisan serve on the preview port');
    return { framework: server('laravel', start), install, env: {} };
  }
  const root =
    (await files.isFile('public/index.php')) && !(await files.isFile('index.php')) ? 'public' : '.';
  const start = ['php', '-S', `${HOST}:${PORT_PLACEHOLDER}`, '-t', root];
  const file =
    root === '.' ? (evidence.file === 'composer.json' ? evidence.file : 'index.php') : 'public/index.php';
  log.add('framework', 'php', file, `${file}: plain PHP, served by PHP's built-in server`);
  log.add('kind', 'server', file, 'a PHP server on PORT');
  log.add(
    'start',
    formatCommand(start),
    file,
    `php -S serving ${root === '.' ? 'the project folder' : 'public/'}`,
  );
  return { framework: server('php', start), install, env: {} };
}

/** Deno: the config's `build` task when there is one, and its `start` task (Fresh: `deno task start`). */
export async function planDeno(
  files: ProjectFiles,
  evidence: StackEvidence,
  log: DecisionLog,
): Promise<Planned> {
  let tasks: Record<string, unknown> = {};
  const configText = (await files.read(evidence.file))?.text ?? '{}';
  // deno.json may hold comments and trailing commas, as Deno reads it.
  const parsed = parseJson(configText, { jsonc: true });
  if (!parsed.ok) {
    log.add('tasks', 'unreadable', evidence.file, `line ${parsed.line}: ${parsed.message}`);
  } else if (parsed.value && typeof parsed.value === 'object') {
    const value = (parsed.value as { tasks?: unknown }).tasks;
    if (value && typeof value === 'object') tasks = value as Record<string, unknown>;
  }
  const fresh = /\$fresh\/|@fresh\/core/.test(configText);
  const framework = fresh ? 'fresh' : 'deno';
  const build = typeof tasks.build === 'string' ? ['deno', 'task', 'build'] : null;
  if (build)
    log.add('build', formatCommand(build), evidence.file, `the "build" task: ${String(tasks.build)}`);
  const main = await files.firstFile(['main.ts', 'server.ts', 'mod.ts', 'main.js']);
  const start =
    typeof tasks.start === 'string'
      ? ['deno', 'task', 'start']
      : main
        ? ['deno', 'run', '--allow-net', '--allow-env', '--allow-read', main]
        : null;
  if (!start) {
    const why = `${evidence.file}: no "start" task and no main.ts to run; set "start" in the forge config`;
    log.add('framework', framework, evidence.file, why);
    log.add('kind', 'unknown', evidence.file, why);
    return {
      framework: { framework, kind: 'unknown', outputDir: null, build, start: null },
      install: null,
      env: {},
    };
  }
  // Its npm: and remote imports are fetched into Deno's cache before the build: from the file the
  // start task runs (else main.ts), or the config's import map alone.
  const entry =
    (typeof tasks.start === 'string'
      ? await files.firstFile(
          String(tasks.start)
            .split(/\s+/)
            .filter((word) => /^[\w./-]+\.(?:ts|tsx|js|mjs|jsx)$/.test(word) && !word.includes('..')),
        )
      : null) ?? main;
  const install = entry
    ? ['deno', 'cache', entry]
    : /"imports"\s*:/.test(configText)
      ? ['deno', 'install']
      : null;
  if (install)
    log.add(
      'install',
      formatCommand(install),
      entry ?? evidence.file,
      entry
        ? `Deno fetches what ${entry} imports (npm: specifiers from the npm registry) into its cache`
        : `Deno fetches the import map of ${evidence.file} into its cache`,
    );
  const file = typeof tasks.start === 'string' ? evidence.file : main!;
  log.add('framework', framework, evidence.file, fresh ? 'Fresh in the import map' : "Deno's config");
  log.add('kind', 'server', file, 'a Deno server on PORT');
  log.add(
    'start',
    formatCommand(start),
    file,
    typeof tasks.start === 'string'
      ? `the "start" task: ${String(tasks.start)}`
      : `${main} run with network, environment and read access`,
  );
  return { framework: { ...server(framework, start), build }, install, env: {} };
}

/** Hugo's publishDir, Zola's output_dir, MkDocs' site_dir, Jekyll's destination, else the default. */
async function generatorOutput(
  files: ProjectFiles,
  stack: 'hugo' | 'jekyll' | 'mkdocs' | 'zola',
  config: string,
): Promise<{ dir: string; key: string | null }> {
  const defaults = { hugo: 'public', jekyll: '_site', mkdocs: 'site', zola: 'public' } as const;
  const keys = { hugo: 'publishDir', jekyll: 'destination', mkdocs: 'site_dir', zola: 'output_dir' } as const;
  const text = (await files.read(config))?.text ?? '';
  let data: Record<string, unknown> = {};
  try {
    data = (
      config.endsWith('.toml')
        ? parseToml(text)
        : config.endsWith('.json')
          ? JSON.parse(text)
          : defaultLoadersSync['.yaml'](config, text)
    ) as Record<string, unknown>;
  } catch {
    // Unreadable: the generator's default folder, which its own error will explain.
  }
  const value = data?.[keys[stack]];
  return typeof value === 'string' && value.trim() && !value.includes('..') && !value.startsWith('/')
    ? { dir: value.replace(/^\.\//, '').replace(/\/+$/, ''), key: keys[stack] }
    : { dir: defaults[stack], key: null };
}

/** Hugo, Jekyll, MkDocs and Zola: the generator's build, its output folder served as static pages. */
export async function planStaticGenerator(
  files: ProjectFiles,
  evidence: StackEvidence,
  log: DecisionLog,
): Promise<Planned> {
  const stack = evidence.stack as 'hugo' | 'jekyll' | 'mkdocs' | 'zola';
  let build = {
    hugo: ['hugo'],
    jekyll: ['jekyll', 'build'],
    mkdocs: ['mkdocs', 'build'],
    zola: ['zola', 'build'],
  }[stack];
  const out = await generatorOutput(files, stack, evidence.file);
  log.add('framework', stack, evidence.file, evidence.rule);
  log.add('kind', 'static-build', evidence.file, 'a static-site generator: its output folder is served');
  let install: Argv | null = null;
  let env: Record<string, string> = {};
  if (stack === 'jekyll' && (await files.isFile('Gemfile'))) {
    // The bundle goes into the project's own gem folder in FORGE_HOME (GEM_HOME), where this
    // machine's gems stay visible: `bundle check` settles a Gemfile they satisfy without its source
    // (rubygems.org is not reachable from every build machine), else `bundle install` fetches the
    // rest from the Gemfile's source. A fixed line Forge writes, run by sh.
    install = ['sh', '-c', 'bundle check || bundle install'];
    build = ['bundle', 'exec', 'jekyll', 'build'];
    env = { JEKYLL_ENV: 'production' };
    log.add(
      'install',
      formatCommand(install),
      'Gemfile',
      "Bundler installs the Gemfile's gems (its plugins) into the project's gem folder; the gems this machine has are used where they satisfy it",
    );
  } else if (stack === 'jekyll') {
    env = { JEKYLL_ENV: 'production', JEKYLL_NO_BUNDLER_REQUIRE: 'true' };
  } else if (stack === 'mkdocs') {
    const requirements = await files.firstFile(['requirements.txt', 'docs/requirements.txt']);
    if (requirements) {
      // Themes and plugins are the project's: pip installs them into its virtual environment (made
      // over the Python of this machine's mkdocs, whose packages it sees), and mkdocs runs from there.
      install = ['python', '-m', 'pip', 'install', '-r', requirements];
      build = ['python', '-m', 'mkdocs', 'build'];
      env = { PYTHONUNBUFFERED: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1' };
      log.add(
        'install',
        formatCommand(install),
        requirements,
        `pip installs ${requirements} (the site's themes and plugins) into the project's virtual environment`,
      );
    }
  }
  log.add(
    'build',
    formatCommand(build),
    evidence.file,
    build[0] === 'bundle'
      ? "jekyll's own build, with the Gemfile's bundle loaded (its jekyll_plugins group required)"
      : build[0] === 'python'
        ? "mkdocs' own build, run by the project's virtual environment (its themes and plugins)"
        : `${stack}'s own build`,
  );
  log.add(
    'outputDir',
    out.dir,
    evidence.file,
    out.key ? `${out.key} in ${evidence.file}` : `${stack}'s default output folder`,
  );
  return {
    framework: { framework: stack, kind: 'static-build', outputDir: out.dir, build, start: null },
    install,
    env,
  };
}
