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
} satisfies Record<string, ProjectFiles>;

export type ProjectName = keyof typeof PROJECTS;

/** The project as a ZIP. */
export const projectZip = (name: ProjectName): Buffer => makeZip(PROJECTS[name]);

/** Write `<as>.zip` (default: the project's name) into `dir`; returns its file name. */
export function writeProject(dir: string, name: ProjectName, as: string = name): string {
  const file = `${as}.zip`;
  writeZip(dir, file, PROJECTS[name]);
  return file;
}
