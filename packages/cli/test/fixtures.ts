import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeZip } from './zip.ts';

/** Project ZIPs for the CI tests, each a behaviour of the real daemon's pipeline. */

const pkg = (name: string, scripts: Record<string, string>) =>
  JSON.stringify({ name, private: true, scripts });

/** Writes dist/index.html; `node` only, so no install is needed. */
const BUILD_JS =
  "const fs = require('fs'); fs.mkdirSync('dist', { recursive: true }); fs.writeFileSync('dist/index.html', '<h1>built</h1>'); fs.writeFileSync('dist/app.js', 'console.log(1)');\n";
const HANG = 'node -e "setTimeout(() => {}, 120000)"';

export const FIXTURES = {
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
} satisfies Record<string, Record<string, string>>;

export type FixtureName = keyof typeof FIXTURES;

/** Write `<as>.zip` (default: the fixture's name) into `dir`; returns its file name. */
export function writeFixture(dir: string, name: FixtureName, as: string = name): string {
  const file = `${as}.zip`;
  writeFileSync(join(dir, file), makeZip(FIXTURES[name]));
  return file;
}
