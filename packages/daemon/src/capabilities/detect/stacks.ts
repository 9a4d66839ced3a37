/**
 * Projects that are not JavaScript: which stack a folder is (Python, Go, Deno, PHP, Ruby, Rust, Java,
 * .NET, Elixir, or a static-site generator), by the files its own tools read, with the version of the
 * tool it asks for and the tool's install command. Read as text, never run.
 */
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { STACK_LABELS, type StackRuntime } from '@forge/shared';
import { installCommand, type SystemPackages } from '../toolchains/system-packages.ts';
import { DEFAULT_DENO_MAJOR } from '../toolchains/tools.ts';
import type { DecisionLog } from './decisions.ts';
import type { FrameworkPlan } from './framework-context.ts';
import { projectFolder, type ProjectFiles } from './project-files.ts';
import type { Argv } from './command-line.ts';
import {
  planGo,
  planPython,
  planStaticGenerator,
  planPhp,
  planDeno,
  type StackEvidence,
} from './stack-plans.ts';

export type { StackEvidence } from './stack-plans.ts';

/** What a folder of another stack is planned as: its framework plan, install and the tool it needs. */
export interface StackPlan {
  stack: StackEvidence['stack'];
  framework: FrameworkPlan;
  install: Argv | null;
  /** Environment its commands need that is no path (GOFLAGS, GOPROXY…). */
  env: Record<string, string>;
  runtime: StackRuntime;
  /**
   * Where the install runs, from the app's folder, when that is not the folder itself: a Python app
   * in `src/` whose pyproject.toml (and lock) is the repository's, at `..`.
   */
  installFrom?: string;
}

/** The tool each stack runs, the packages that carry it, and whether Forge plans its commands. */
const TOOLS: Record<StackEvidence['stack'], { tool: string; packages: SystemPackages; buildable: boolean }> =
  {
    python: {
      tool: 'python3',
      packages: {
        apt: ['python3', 'python3-venv'],
        dnf: ['python3'],
        apk: ['python3'],
        brew: ['python'],
        otherwise: 'install Python 3 from https://www.python.org/downloads/',
      },
      buildable: true,
    },
    go: {
      tool: 'go',
      packages: {
        apt: ['golang-go'],
        dnf: ['golang'],
        apk: ['go'],
        brew: ['go'],
        otherwise: 'install Go from https://go.dev/dl/',
      },
      buildable: true,
    },
    deno: {
      tool: 'deno',
      packages: {
        apt: null,
        dnf: null,
        apk: ['deno'],
        brew: ['deno'],
        otherwise: 'npm install -g deno (the deno package on the npm registry carries the binary)',
      },
      buildable: true,
    },
    php: {
      tool: 'php',
      packages: {
        apt: ['php-cli'],
        dnf: ['php-cli'],
        apk: ['php83'],
        brew: ['php'],
        otherwise: 'install PHP from https://www.php.net/downloads',
      },
      buildable: true,
    },
    hugo: {
      tool: 'hugo',
      packages: {
        apt: ['hugo'],
        dnf: ['hugo'],
        apk: ['hugo'],
        brew: ['hugo'],
        otherwise: 'install Hugo from https://gohugo.io/installation/',
      },
      buildable: true,
    },
    jekyll: {
      tool: 'jekyll',
      packages: {
        apt: ['jekyll'],
        dnf: ['rubygem-jekyll'],
        apk: null,
        brew: null,
        otherwise: 'gem install jekyll (with Ruby installed)',
      },
      buildable: true,
    },
    mkdocs: {
      tool: 'mkdocs',
      packages: {
        apt: ['mkdocs'],
        dnf: ['mkdocs'],
        apk: null,
        brew: ['mkdocs'],
        otherwise: 'pip install mkdocs',
      },
      buildable: true,
    },
    zola: {
      tool: 'zola',
      packages: {
        apt: null,
        dnf: null,
        apk: ['zola'],
        brew: ['zola'],
        otherwise: 'download the zola release for this machine from https://github.com/getzola/zola/releases',
      },
      buildable: true,
    },
    ruby: {
      tool: 'ruby',
      packages: {
        apt: ['ruby-full', 'ruby-bundler'],
        dnf: ['ruby', 'rubygem-bundler'],
        apk: ['ruby', 'ruby-bundler'],
        brew: ['ruby'],
        otherwise: 'install Ruby from https://www.ruby-lang.org/en/downloads/',
      },
      buildable: false,
    },
    rust: {
      tool: 'cargo',
      packages: {
        apt: ['cargo'],
        dnf: ['cargo'],
        apk: ['cargo'],
        brew: ['rust'],
        otherwise: 'install Rust with rustup from https://rustup.rs',
      },
      buildable: false,
    },
    java: {
      tool: 'java',
      packages: {
        apt: ['default-jdk', 'maven'],
        dnf: ['java-17-openjdk-devel', 'maven'],
        apk: ['openjdk17', 'maven'],
        brew: ['openjdk', 'maven'],
        otherwise: 'install a JDK from https://adoptium.net',
      },
      buildable: false,
    },
    dotnet: {
      tool: 'dotnet',
      packages: {
        apt: null,
        dnf: ['dotnet-sdk-8.0'],
        apk: ['dotnet8-sdk'],
        brew: null,
        otherwise:
          "add Microsoft's package repository (https://learn.microsoft.com/dotnet/core/install/linux), then install dotnet-sdk-8.0 with the system package manager",
      },
      buildable: false,
    },
    elixir: {
      tool: 'mix',
      packages: {
        apt: ['elixir'],
        dnf: ['elixir'],
        apk: ['elixir'],
        brew: ['elixir'],
        otherwise: 'install Elixir from https://elixir-lang.org/install.html',
      },
      buildable: false,
    },
  };

/** How a stack is named in messages: "Python (requirements.txt)". */
export const stackName = (evidence: Pick<StackEvidence, 'stack' | 'file'>): string =>
  `${STACK_LABELS[evidence.stack]} (${evidence.file})`;

/** Files that alone say a folder holds an app of another stack (for the scan of app folders). */
export const STACK_MARKERS = [
  'requirements.txt',
  'pyproject.toml',
  'Pipfile',
  'setup.py',
  'manage.py',
  'go.mod',
  'go.work',
  'deno.json',
  'deno.jsonc',
  'composer.json',
  'index.php',
  'Gemfile',
  'Cargo.toml',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'mix.exs',
  'hugo.toml',
  'hugo.yaml',
  'hugo.json',
  'mkdocs.yml',
  'mkdocs.yaml',
  '_config.yml',
];

const HUGO_CONFIGS = ['hugo.toml', 'hugo.yaml', 'hugo.yml', 'hugo.json'];

/**
 * The stacks a folder without a package.json shows, most specific first: a site generator (whose
 * folder may also hold a Gemfile or a requirements.txt for it), Deno, then the languages.
 */
export async function findStacks(files: ProjectFiles): Promise<StackEvidence[]> {
  const found: StackEvidence[] = [];
  const has = (rel: string) => files.isFile(rel);
  const text = async (rel: string) => (await files.read(rel))?.text ?? '';
  const add = (stack: StackEvidence['stack'], file: string, rule: string) =>
    found.push({ stack, file, rule });

  const hugo = await files.firstFile(HUGO_CONFIGS);
  if (hugo) add('hugo', hugo, `${hugo}: Hugo's own config`);
  else {
    const config = await files.firstFile(['config.toml', 'config.yaml', 'config/_default/hugo.toml']);
    const site = (await files.listDirs('.')).filter((d) => ['content', 'layouts', 'themes'].includes(d));
    if (config && site.includes('content')) {
      const body = await text(config);
      if (/^\s*base_url\s*=/m.test(body) && (await files.listDirs('.')).includes('templates')) {
        add('zola', config, `${config} sets base_url, with content/ and templates/: a Zola site`);
      } else if (site.length >= 2 || /baseURL|theme\s*[=:]/i.test(body)) {
        add('hugo', config, `${config} with ${site.join(', ')}/: a Hugo site`);
      }
    }
  }
  const mkdocs = await files.firstFile(['mkdocs.yml', 'mkdocs.yaml']);
  if (mkdocs) add('mkdocs', mkdocs, `${mkdocs}: MkDocs' own config`);
  if (await has('_config.yml')) {
    const gemfile = await text('Gemfile');
    if (/['"]jekyll['"]|github-pages/.test(gemfile)) {
      add('jekyll', '_config.yml', '_config.yml, and the Gemfile asks for jekyll');
    } else if ((await files.listDirs('.')).some((d) => ['_posts', '_layouts', '_includes'].includes(d))) {
      add('jekyll', '_config.yml', "_config.yml with Jekyll's _posts/, _layouts/ or _includes/");
    }
  }
  const deno = await files.firstFile(['deno.json', 'deno.jsonc']);
  if (deno) add('deno', deno, `${deno}: Deno's own config`);
  for (const [file, rule] of [
    ['requirements.txt', "pip's requirements file"],
    ['pyproject.toml', 'the Python project file'],
    ['Pipfile', "Pipenv's file"],
    ['setup.py', 'a setuptools project'],
    ['manage.py', "Django's manage.py"],
  ] as const) {
    if (await has(file)) {
      add('python', file, `${file}: ${rule}`);
      break;
    }
  }
  const go = await files.firstFile(['go.mod', 'go.work']);
  if (go) add('go', go, `${go}: a Go module`);
  else if (await has('main.go')) add('go', 'main.go', 'main.go without go.mod: a Go program');
  if (await has('artisan')) add('php', 'artisan', "Laravel's artisan");
  else {
    const php = await files.firstFile(['composer.json', 'index.php', 'public/index.php']);
    if (php) add('php', php, php === 'composer.json' ? "Composer's project file" : `${php}: a PHP site`);
  }
  if (await has('Gemfile')) add('ruby', 'Gemfile', "Bundler's Gemfile");
  if (await has('Cargo.toml')) add('rust', 'Cargo.toml', "Cargo's manifest");
  const java = await files.firstFile(['pom.xml', 'build.gradle', 'build.gradle.kts']);
  if (java) add('java', java, java === 'pom.xml' ? "Maven's project file" : "Gradle's build file");
  const dotnet = (await files.listFiles('.')).find((f) => /\.(cs|fs|vb)proj$|\.sln$/.test(f));
  if (dotnet) add('dotnet', dotnet, `${dotnet}: a .NET project`);
  if (await has('mix.exs')) add('elixir', 'mix.exs', "Mix's project file");
  return found;
}

/** What carries a stack's tool on each OS (python3 and python3-venv on Debian…). */
export const stackPackages = (stack: StackEvidence['stack']): SystemPackages => TOOLS[stack].packages;

/** The lowest version a stated requirement allows: ">=3.10,<4" → "3.10", "^8.1" → "8.1", "go1.22.3" → "1.22.3". */
export function minimumVersion(wanted: string): string | null {
  const lower = /(?:>=|\^|~=|~|==|=)\s*v?(\d+(?:\.\d+){0,2})/.exec(wanted);
  if (lower) return lower[1]!;
  if (/^\s*[<!]/.test(wanted)) return null;
  return /(\d+(?:\.\d+){0,2})/.exec(wanted)?.[1] ?? null;
}

/** The version a stack's files ask for, with where it is written. */
async function wantedVersion(
  files: ProjectFiles,
  stack: StackEvidence['stack'],
): Promise<{ wanted: string; file: string } | null> {
  const first = async (rel: string, pick: (text: string) => string | null | undefined) => {
    const body = (await files.read(rel))?.text;
    const value = body === undefined ? null : pick(body)?.trim();
    return value ? { wanted: value, file: rel } : null;
  };
  switch (stack) {
    case 'python':
      return (
        (await first('.python-version', (t) => t.split('\n')[0])) ??
        (await first('runtime.txt', (t) => /python-(\d[\w.]*)/.exec(t)?.[1])) ??
        (await first('pyproject.toml', (t) => {
          try {
            const project = (parseToml(t) as { project?: { 'requires-python'?: unknown } }).project;
            const value = project?.['requires-python'];
            return typeof value === 'string' ? value : null;
          } catch {
            return null;
          }
        }))
      );
    case 'go':
      return (
        (await first('go.mod', (t) => /^go\s+(\d[\w.]*)\s*$/m.exec(t)?.[1])) ??
        (await first('go.work', (t) => /^go\s+(\d[\w.]*)\s*$/m.exec(t)?.[1]))
      );
    case 'php':
      return first('composer.json', (t) => {
        try {
          const php = (JSON.parse(t) as { require?: Record<string, unknown> }).require?.php;
          return typeof php === 'string' ? php : null;
        } catch {
          return null;
        }
      });
    case 'ruby':
      return (
        (await first('.ruby-version', (t) => t.split('\n')[0]?.replace(/^ruby-/, ''))) ??
        (await first('Gemfile', (t) => /^\s*ruby\s+['"]([^'"]+)['"]/m.exec(t)?.[1]))
      );
    case 'deno':
      // The files setup-deno and version managers read (deno.json has no version field).
      return (
        (await first('.dvmrc', (t) => t.split('\n')[0]?.replace(/^v/, ''))) ??
        (await first('.deno-version', (t) => t.split('\n')[0]?.replace(/^v/, ''))) ??
        (await first('.tool-versions', (t) => /^deno\s+v?(\S+)/m.exec(t)?.[1]))
      );
    case 'rust':
      return first('Cargo.toml', (t) => /^\s*rust-version\s*=\s*"([^"]+)"/m.exec(t)?.[1]);
    default:
      return null;
  }
}

/**
 * Plan a folder of another stack: its framework, install, build and start, and the tool it needs (with
 * the version asked for and the command that installs it). Each decision names its evidence.
 */
export async function planStack(
  files: ProjectFiles,
  evidence: StackEvidence,
  log: DecisionLog,
  others: readonly StackEvidence[],
): Promise<StackPlan> {
  const { stack } = evidence;
  const tool = TOOLS[stack];
  log.add('stack', stack, evidence.file, evidence.rule);
  for (const other of others) {
    if (other !== evidence) {
      log.add(
        'otherStack',
        other.stack,
        other.file,
        `${other.rule}; ${stackName(evidence)} comes first (site generators, then Deno, then the languages)`,
      );
    }
  }
  // A Python app's dependencies may be declared above it (manage.py in src/, pyproject.toml and its
  // lock at the root): the nearest folder that declares them is where it installs and states its Python.
  const home = stack === 'python' ? await pythonHome(files) : null;
  const version =
    (await wantedVersion(files, stack)) ??
    (home && home.rel !== '.'
      ? await wantedVersion(home.files, stack).then(
          (v) => v && { ...v, file: path.posix.join(home.rel, v.file) },
        )
      : null);
  const minimum = version ? minimumVersion(version.wanted) : null;
  const runtime: StackRuntime = {
    tool: tool.tool,
    wanted: version?.wanted ?? null,
    minimum,
    // Project-relative, as messages and the diagnosis name it (the log below names it from the app).
    versionFile: version ? path.posix.join(files.parent?.dir ?? '.', version.file) : null,
    installCommand: installCommand(tool.packages),
    buildable: tool.buildable,
    found: null,
    source: null,
  };
  log.add(
    'runtime',
    version ? `${tool.tool} ${version.wanted}` : tool.tool,
    version?.file ?? evidence.file,
    stack === 'deno'
      ? `${version ? `${version.file} asks for ${version.wanted}` : 'no version stated'}: this machine's deno when it is that version, else Deno ${version ? version.wanted : String(DEFAULT_DENO_MAJOR)} from the npm registry into Forge's toolchains`
      : version
        ? `${version.file} asks for ${version.wanted}${minimum ? ` (${minimum} or newer)` : ''}; this machine's ${tool.tool} is used when it satisfies it`
        : `${STACK_LABELS[stack]} runs with this machine's ${tool.tool} (no version stated)`,
  );
  const none: FrameworkPlan = {
    framework: stack,
    kind: 'unknown',
    outputDir: null,
    build: null,
    start: null,
  };
  let planned: { framework: FrameworkPlan; install: Argv | null; env: Record<string, string> };
  switch (stack) {
    case 'python':
      planned = await planPython(files, evidence, log, home!);
      break;
    case 'go':
      planned = await planGo(files, evidence, log);
      break;
    case 'php':
      planned = await planPhp(files, evidence, log);
      break;
    case 'deno':
      planned = await planDeno(files, evidence, log);
      break;
    case 'hugo':
    case 'jekyll':
    case 'mkdocs':
    case 'zola':
      planned = await planStaticGenerator(files, evidence, log);
      break;
    default: {
      const why = `${stackName(evidence)}: Forge does not plan ${STACK_LABELS[stack]} builds; set "install", "build" and "start" (or "outputDir") in the forge config to build it with ${tool.tool}`;
      log.add('framework', stack, evidence.file, why);
      log.add('kind', 'unknown', evidence.file, why);
      planned = { framework: none, install: null, env: {} };
    }
  }
  return { stack, ...planned, runtime, ...(home && home.rel !== '.' ? { installFrom: home.rel } : {}) };
}

/** The files that declare a Python project's dependencies. */
const PYTHON_DECLARATIONS = ['requirements.txt', 'Pipfile', 'pyproject.toml'];

/**
 * The folder whose files declare a Python app's dependencies: the app's own when it has any, else the
 * nearest folder above it, inside the project, with a requirements.txt, a Pipfile or a pyproject.toml
 * that declares a project (a [project] or [tool.poetry] table, not only tool settings). `rel` is that
 * folder from the app's.
 */
export async function pythonHome(files: ProjectFiles): Promise<{ files: ProjectFiles; rel: string }> {
  if ((await files.firstFile(PYTHON_DECLARATIONS)) !== null || !files.parent) return { files, rel: '.' };
  const { files: root, dir } = files.parent;
  for (let up = path.posix.dirname(dir), rel = '..'; ; up = path.posix.dirname(up), rel = `${rel}/..`) {
    const folder = projectFolder(root, up);
    if ((await folder.isFile('requirements.txt')) || (await folder.isFile('Pipfile')))
      return { files: folder, rel };
    const pyproject = (await folder.read('pyproject.toml'))?.text;
    if (pyproject && /^\[(?:project|tool\.poetry)\]/m.test(pyproject)) return { files: folder, rel };
    if (up === '.') return { files, rel: '.' };
  }
}
