import { makeZip, writeZip, type ProjectFiles } from './zip.ts';

/** Small projects, each a behaviour of the real daemon's pipeline, for every package's tests. */

const pkg = (name: string, scripts: Record<string, string>) =>
  JSON.stringify({ name, private: true, scripts }, null, 2);

/** Writes dist/index.html and a script; `node` only, so no install is needed. */
const BUILD_JS =
  "const fs = require('fs'); fs.mkdirSync('dist', { recursive: true }); fs.writeFileSync('dist/index.html', '<h1>built</h1>'); fs.writeFileSync('dist/app.js', 'console.log(1)');\n";
const HANG = 'node -e "setTimeout(() => {}, 120000)"';

export const PROJECTS = {
  /** A plain static site: nothing to install or build. */
  'hello-site': { 'index.html': '<!doctype html><title>Hello</title><h1>Hello from Forge</h1>\n' },
  /** A build with no install: `node build.js` writes dist/ with a stylesheet and a script. */
  'node-build': {
    'package.json': pkg('node-build', { build: 'node build.js' }),
    'build.js': `const fs = require('fs');
fs.mkdirSync('dist/assets', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><html><head><link rel="stylesheet" href="/assets/site.css"></head><body><h1 id="title">Built by Forge</h1><script src="/assets/app.js"></script></body></html>');
fs.writeFileSync('dist/assets/site.css', 'h1 { color: rgb(0, 128, 128); }');
fs.writeFileSync('dist/assets/app.js', 'document.body.dataset.js = "ran";');
console.log('built node-build');
`,
  },
  /** Builds, and its tests pass. */
  tested: {
    'package.json': pkg('tested', { build: 'node build.js', test: 'node -e "console.log(\'ok 1\')"' }),
    'build.js': BUILD_JS,
  },
  /** Builds, and its tests fail (with markup in their output): the build still succeeds. */
  'tests-fail': {
    'package.json': pkg('tests-fail', {
      build: 'node build.js',
      test: 'node -e "console.log(\'not ok 1 - <b> & \\"c\\"\'); process.exit(1)"',
    }),
    'build.js': BUILD_JS,
  },
  /** The build script exits 1. */
  failing: { 'package.json': pkg('failing', { build: 'node -e "console.log(\'boom\'); process.exit(1)"' }) },
  /** The build hangs; the project's own forge config gives each stage 1 s. */
  'stage-timeout': {
    'package.json': pkg('stage-timeout', { build: HANG }),
    '.forgerc.json': JSON.stringify({ timeout: '1s' }),
  },
  /** The build hangs for two minutes (the default stage timeout is 10 min). */
  hanging: { 'package.json': pkg('hanging', { build: HANG }) },
  /** An entry that climbs out of the project folder: refused by the daemon (ARCHIVE_PATH_TRAVERSAL). */
  hostile: { '../evil': 'x', 'index.html': '<h1>hi</h1>' },
  /**
   * Builds; its test runner passes, then enters watch mode as Jest does outside CI ("Watch Usage") and
   * waits for a key forever: TestBot recognises it and stops it early, the build succeeds.
   */
  'tests-watch': {
    'package.json': pkg('tests-watch', { build: 'node build.js', test: 'node watch-runner.js' }),
    'build.js': BUILD_JS,
    'watch-runner.js': `console.log('PASS  src/sum.test.js');
console.log('Tests:       1 passed, 1 total');
console.log('');
console.log('Watch Usage');
console.log(' \u203a Press a to run all tests.');
console.log(' \u203a Press q to quit watch mode.');
setInterval(() => {}, 60000);
`,
  },
} satisfies Record<string, ProjectFiles>;

export type ProjectName = keyof typeof PROJECTS;

/** The project as a ZIP. */
export const projectZip = (name: ProjectName): Buffer => makeZip(PROJECTS[name]);

/** Write `<as>.zip` (default: the project's name) into `dir`, with `extra` files beside its own; returns its file name. */
export function writeProject(
  dir: string,
  name: ProjectName,
  as: string = name,
  extra: Record<string, string> = {},
): string {
  const file = `${as}.zip`;
  writeZip(dir, file, { ...PROJECTS[name], ...extra });
  return file;
}

/**
 * One small app per package manager, each with its lockfile as that tool writes it (generated with the
 * tool itself) and one real dependency (escape-html) that its build uses: the build writes
 * dist/index.html naming the tool and version that ran it (npm_config_user_agent), so a test can see
 * which package manager really ran. All are named "pm-app": Berry's and bun's lockfiles name the root.
 */
const PM_APP_PACKAGE = (extra: object = {}) =>
  JSON.stringify(
    {
      name: 'pm-app',
      private: true,
      version: '1.0.0',
      scripts: { build: 'node build.js' },
      dependencies: { 'escape-html': '1.0.3' },
      ...extra,
    },
    null,
    2,
  );
const PM_APP_BUILD = `const fs = require('fs');
const escapeHtml = require('escape-html');
const agent = (process.env.npm_config_user_agent || 'unknown').split(' ')[0];
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><title>pm-app</title><h1>' + escapeHtml('<built> by ' + agent) + '</h1>');
// The running package manager's own entry point (pnpm.cjs, yarn.js, bun's binary): where it was run from.
console.log('built with ' + agent + ' from ' + (process.env.npm_execpath || 'an unknown path'));
`;
export const PACKAGE_MANAGER_PROJECTS = {
  /** pnpm-lock.yaml lockfileVersion 9.0 (pnpm 10). */
  pnpm: {
    'package.json': PM_APP_PACKAGE(),
    'build.js': PM_APP_BUILD,
    'pnpm-lock.yaml': `lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  .:
    dependencies:
      escape-html:
        specifier: 1.0.3
        version: 1.0.3

packages:

  escape-html@1.0.3:
    resolution: {integrity: sha512-NiSupZ4OeuGwr68lGIeym/ksIZMJodUGOSCZ/FSnTxcrekbvqrgdUxlJOMpijaKZVjAJrWrGs/6Jy8OMuyj9ow==}

snapshots:

  escape-html@1.0.3: {}
`,
  },
  /** A Yarn 1 yarn.lock. */
  'yarn-classic': {
    'package.json': PM_APP_PACKAGE(),
    'build.js': PM_APP_BUILD,
    'yarn.lock': `# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.
# yarn lockfile v1


escape-html@1.0.3:
  version "1.0.3"
  resolved "https://registry.yarnpkg.com/escape-html/-/escape-html-1.0.3.tgz#0258eae4d3d0c0974de1c169188ef0051d1d1988"
  integrity sha512-NiSupZ4OeuGwr68lGIeym/ksIZMJodUGOSCZ/FSnTxcrekbvqrgdUxlJOMpijaKZVjAJrWrGs/6Jy8OMuyj9ow==
`,
  },
  /** Yarn Berry with node_modules (.yarnrc.yml) and a Yarn 4 lockfile. */
  'yarn-berry': {
    'package.json': PM_APP_PACKAGE(),
    'build.js': PM_APP_BUILD,
    '.yarnrc.yml': 'nodeLinker: node-modules\n',
    'yarn.lock': `# This file is generated by running "yarn install" inside your project.
# Manual changes might be lost - proceed with caution!

__metadata:
  version: 10
  cacheKey: 10c0

"escape-html@npm:1.0.3":
  version: 1.0.3
  resolution: "escape-html@npm:1.0.3"
  checksum: 10c0/524c739d776b36c3d29fa08a22e03e8824e3b2fd57500e5e44ecf3cc4707c34c60f9ca0781c0e33d191f2991161504c295e98f68c78fe7baa6e57081ec6ac0a3
  languageName: node
  linkType: hard

"pm-app@workspace:.":
  version: 0.0.0-use.local
  resolution: "pm-app@workspace:."
  dependencies:
    escape-html: "npm:1.0.3"
  languageName: unknown
  linkType: soft
`,
  },
  /** bun's text lockfile. */
  bun: {
    'package.json': PM_APP_PACKAGE(),
    'build.js': PM_APP_BUILD,
    'bun.lock': `{
  "lockfileVersion": 1,
  "workspaces": {
    "": {
      "name": "pm-app",
      "dependencies": {
        "escape-html": "1.0.3",
      },
    },
  },
  "packages": {
    "escape-html": ["escape-html@1.0.3", "", {}, "sha512-NiSupZ4OeuGwr68lGIeym/ksIZMJodUGOSCZ/FSnTxcrekbvqrgdUxlJOMpijaKZVjAJrWrGs/6Jy8OMuyj9ow=="],
  }
}
`,
  },
  /** npm without a lockfile: installed from Forge's shared store with pnpm. */
  'npm-no-lockfile': {
    'package.json': PM_APP_PACKAGE(),
    'build.js': PM_APP_BUILD,
  },
} satisfies Record<string, ProjectFiles>;

/**
 * Failures as a person meets them (docs/pipeline.md "Previews and failures"): what Forge finds in the
 * output, where, and how it says so.
 */
export const FAILURE_PROJECTS = {
  /**
   * The build prints a TypeScript error, as tsc does, among other lines, and exits 2: the first error
   * line and its place (src/app.ts:3:7) are the failure's evidence.
   */
  'type-error': {
    'package.json': pkg('type-error', { build: 'node build.js' }),
    'src/app.ts': "import { sum } from './sum';\n\nconst total: string = sum(1, 2);\nexport default total;\n",
    'build.js': `console.log('> tsc --noEmit');
console.log('checking 2 files…');
console.error(require('path').join(process.cwd(), 'src/app.ts') + "(3,7): error TS2322: Type 'number' is not assignable to type 'string'.");
console.error("src/app.ts(1,21): error TS2307: Cannot find module './sum' or its corresponding type declarations.");
process.exit(2);
`,
  },
  /**
   * A server app that ignores PORT: it listens on a port of its own (one the system picks) and says
   * nothing about it. PreviewBot finds it by its listening socket and previews it there.
   */
  'ignores-port': {
    'package.json': pkg('ignores-port', { start: 'node server.js' }),
    'server.js': `const http = require('http');
const server = http.createServer((req, res) => res.end('ignored PORT ' + process.env.PORT));
server.listen(0, '127.0.0.1', () => console.log('ready'));
`,
  },
} satisfies Record<string, ProjectFiles>;

export type FailureProjectName = keyof typeof FAILURE_PROJECTS;

/** Write a failure project as `<as>.zip` into `dir`; returns its file name. */
export function writeFailureProject(dir: string, name: FailureProjectName, as: string = name): string {
  const file = `${as}.zip`;
  writeZip(dir, file, FAILURE_PROJECTS[name]);
  return file;
}
